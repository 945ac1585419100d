import { useState } from 'react';
import { FormattedMessage, useIntl } from 'react-intl';
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
  const intl = useIntl();
  const codes = overview.codebook?.codes ?? [];
  const depth = (code: CodeDef): number => {
    let d = 0;
    for (let p = code.parent; p !== undefined && d < codes.length; d++) p = codes.find((c) => c.name === p)?.parent;
    return d;
  };
  const [adding, setAdding] = useState<CodeProposal | { name: string } | null>(null);
  return (
    <aside className="codebook-panel" aria-label={intl.formatMessage({ id: 'coding.codebook.label' })}>
      <div className="codebook-head">
        <strong>
          <FormattedMessage id="coding.codebook" />
        </strong>
        {overview.codebook && (
          <span className="muted" title={intl.formatMessage({ id: 'coding.codebook.versionTitle' })}>
            <FormattedMessage
              id="coding.codebook.version"
              values={{ version: overview.codebook.version, exclusive: overview.codebook.exclusive ? 'yes' : 'no' }}
            />
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
            <p>
              {textInLanguage(shown.definition, [guidelineLanguage()]) || (
                <span className="muted">
                  <FormattedMessage id="coding.definition.none" />
                </span>
              )}
            </p>
            {shown.example && (
              <p className="muted">
                <FormattedMessage id="coding.codebook.example" values={{ example: textInLanguage(shown.example, [guidelineLanguage()]) }} />
              </p>
            )}
            {shown.counter_example && (
              <p className="muted">
                <FormattedMessage
                  id="coding.codebook.counterExample"
                  values={{ example: textInLanguage(shown.counter_example, [guidelineLanguage()]) }}
                />
              </p>
            )}
          </>
        ) : (
          <p className="muted">
            <FormattedMessage id="coding.codebook.point" values={{ kbd: (chunks) => <kbd>{chunks}</kbd> }} />
          </p>
        )}
      </div>
      {overview.proposals.length > 0 && (
        <div className="proposals">
          <strong>
            <FormattedMessage id="coding.proposals" />
          </strong>
          <ul>
            {overview.proposals.map((p) => (
              <li key={`${p.coder}:${p.seq}`}>
                <FormattedMessage id="coding.quoted" values={{ text: p.name }} />{' '}
                <span className="muted">
                  <FormattedMessage id="coding.proposal.by" values={{ coder: p.coder, item: p.item_id, unit: p.unit }} />
                </span>{' '}
                <button className="link" onClick={() => setAdding(p)}>
                  <FormattedMessage id="coding.proposal.add" />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
      {!adding && (
        <button className="link add-code" onClick={() => setAdding({ name: '' })}>
          <FormattedMessage id="coding.newCode" />
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
  const intl = useIntl();
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
        <FormattedMessage id="coding.newCode.name" />
        <input value={name} onChange={(e) => setName(e.target.value)} required />
      </label>
      <label>
        <FormattedMessage id="coding.newCode.definition" />
        <textarea
          value={definition}
          onChange={(e) => setDefinition(e.target.value)}
          rows={3}
          required
          placeholder={intl.formatMessage({ id: 'coding.newCode.definitionPlaceholder' })}
        />
      </label>
      <label>
        <FormattedMessage id="coding.newCode.under" />
        <select value={parent} onChange={(e) => setParent(e.target.value)}>
          <option value="">{intl.formatMessage({ id: 'coding.newCode.topLevel' })}</option>
          {parents.map((p) => (
            <option key={p}>{p}</option>
          ))}
        </select>
      </label>
      <label>
        <FormattedMessage id="coding.newCode.key" />
        <input value={key} maxLength={1} onChange={(e) => setKey(e.target.value)} className="key-input" />
      </label>
      <div className="form-buttons">
        <button className="primary" type="submit">
          <FormattedMessage id="coding.newCode.add" />
        </button>
        <button type="button" onClick={onCancel}>
          <FormattedMessage id="common.cancel" />
        </button>
      </div>
    </form>
  );
}
