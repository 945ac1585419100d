import { useState } from 'react';
import type { CodeDef } from '../../../../core/common/codebook/codebook';
import type { CodeProposal } from '../../../../core/common/coding/codingFold';
import type { CodingOverview } from '../../../../core/common/coding/codingViews';
import type { RunCall } from '../../shared/runCall';
import { useApi } from '../../shared/api';
import { textInLanguage } from '../../../../core/common/guidelines/guidelines';
import { guidelineLanguage } from '../guidelines/guidelineLanguage';

interface Props {
  run: RunCall;
  overview: CodingOverview;
  onOverview: (overview: CodingOverview) => void;
  /** toggle the code on the current unit */
  onApply: (code: string) => void;
  /** codes on the current unit */
  applied: ReadonlySet<string>;
  /** the code whose definition shows (hovered or focused) */
  shown: CodeDef | null;
  onShow: (code: string | null) => void;
  canApply: boolean;
}

/**
 * The codebook beside the units: a button per code (its key, nested under its parent), its definition shown while the
 * pointer or the focus is on it, and the in-vivo proposals the lead can add to codebook.yaml.
 */
export function CodebookPanel({ run, overview, onOverview, onApply, applied, shown, onShow, canApply }: Props) {
  const client = useApi();
  const codes = overview.codebook?.codes ?? [];
  const depth = (code: CodeDef): number => {
    let d = 0;
    for (let p = code.parent; p !== undefined && d < codes.length; d++) p = codes.find((c) => c.name === p)?.parent;
    return d;
  };
  const [adding, setAdding] = useState<CodeProposal | { name: string } | null>(null);
  return (
    <aside className="codebook-panel" aria-label="codebook">
      <div className="codebook-head">
        <strong>Codebook</strong>
        {overview.codebook && (
          <span className="muted" title="changes whenever a definition changes; every coding records it">
            v {overview.codebook.version}
            {overview.codebook.exclusive ? ' · one code per unit' : ''}
          </span>
        )}
      </div>
      <ul className="code-list">
        {codes.map((c) => (
          <li key={c.name} style={{ paddingLeft: `${depth(c) * 14}px` }}>
            <button
              className={`code-btn ${applied.has(c.name) ? 'on' : ''}`}
              aria-pressed={applied.has(c.name)}
              disabled={!canApply}
              title={textInLanguage(c.definition, [guidelineLanguage()])}
              aria-describedby={shown?.name === c.name ? 'code-definition' : undefined}
              onMouseEnter={() => onShow(c.name)}
              onFocus={() => onShow(c.name)}
              onClick={() => onApply(c.name)}
            >
              {c.key && <kbd>{c.key}</kbd>} {c.name}
            </button>
          </li>
        ))}
      </ul>
      <div className="code-definition" id="code-definition" role="note" aria-live="polite">
        {shown ? (
          <>
            <strong>{shown.name}</strong>
            <p>{textInLanguage(shown.definition, [guidelineLanguage()]) || <span className="muted">no definition yet</span>}</p>
            {shown.example && <p className="muted">Example: “{textInLanguage(shown.example, [guidelineLanguage()])}”</p>}
            {shown.counter_example && <p className="muted">Not this: “{textInLanguage(shown.counter_example, [guidelineLanguage()])}”</p>}
          </>
        ) : (
          <p className="muted">
            Point at a code, or press <kbd>?</kbd>, for its definition.
          </p>
        )}
      </div>
      {overview.proposals.length > 0 && (
        <div className="proposals">
          <strong>Proposed codes</strong>
          <ul>
            {overview.proposals.map((p) => (
              <li key={`${p.coder}:${p.seq}`}>
                “{p.name}”{' '}
                <span className="muted">
                  by {p.coder}, {p.item_id} {p.unit}
                </span>{' '}
                <button className="link" onClick={() => setAdding(p)}>
                  Add to codebook…
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!adding && (
        <button className="link add-code" onClick={() => setAdding({ name: '' })}>
          + New code (lead)
        </button>
      )}
      {adding && (
        <AddCodeForm
          initial={adding.name}
          parents={codes.map((c) => c.name)}
          onCancel={() => setAdding(null)}
          onAdd={async (code) => {
            const next = await run(() => client.addCode(code));
            if (!next) return;
            onOverview(next);
            setAdding(null);
          }}
        />
      )}
    </aside>
  );
}

/** The lead writes the definition a new code needs (codebook.yaml requires one); the host validates it like the file. */
function AddCodeForm({
  initial,
  parents,
  onCancel,
  onAdd,
}: {
  initial: string;
  parents: readonly string[];
  onCancel: () => void;
  onAdd: (code: CodeDef) => Promise<void>;
}) {
  const [name, setName] = useState(initial);
  const [definition, setDefinition] = useState('');
  const [parent, setParent] = useState('');
  const [key, setKey] = useState('');
  return (
    <form
      className="add-code-form"
      onSubmit={(e) => {
        e.preventDefault();
        void onAdd({ name: name.trim(), definition: definition.trim(), ...(parent ? { parent } : {}), ...(key ? { key } : {}) });
      }}
    >
      <label>
        Name
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        Definition
        <textarea
          value={definition}
          onChange={(e) => setDefinition(e.target.value)}
          rows={3}
          required
          placeholder="What must a unit show to get this code?"
        />
      </label>
      <label>
        Under
        <select value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">(top level)</option>
          {parents.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      </label>
      <label>
        Key
        <input value={key} maxLength={1} onChange={(e) => setKey(e.target.value)} className="key-input" />
      </label>
      <div className="form-buttons">
        <button className="primary" type="submit">
          Add to codebook
        </button>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
