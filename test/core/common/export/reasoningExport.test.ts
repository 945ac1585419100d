import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseItemsText } from '../../../../core/common/items/itemsSource';
import { parseProjectConfig } from '../../../../core/common/project/projectConfig';
import { Ajv2020 } from 'ajv/dist/2020.js';
import {
  createReasoningExport,
  REASONING_EXPORT_FIELDS,
  reasoningExportFieldSchemas,
  type ReasoningExportFields,
} from '../../../../core/common/export/reasoningExport';
import type { ItemSessionState } from '../../../../core/common/session/itemState';

const demo = path.resolve(__dirname, '../../../../demo-project');
const config = parseProjectConfig(readFileSync(path.join(demo, 'aloud.yaml'), 'utf8'));
const schema = { labels: config.schema.labels, languages: config.thinkaloud.languages };
const items = parseItemsText(readFileSync(path.join(demo, 'items.jsonl'), 'utf8'), 'items.jsonl', 'jsonl', schema);
const item = (id: string) => items.find((i) => i.id === id)!;
const toExport = createReasoningExport(schema, config.reasoning);

function state(itemId: string, extra: Partial<ItemSessionState>): ItemSessionState {
  return {
    item_id: itemId,
    audio_path: null,
    audio_ms: 0,
    transcript: '',
    segments: [],
    commitments: [],
    final_label: null,
    label_source: null,
    blind_label: null,
    signals: null,
    model: null,
    started_at: null,
    completed_at: null,
    stale_results: 0,
    label_history: [],
    segment_refs: [],
    transcript_corrected: null,
    corrections: [],
    superseded_transcripts: [],
    parser_version: null,
    config_changed: false,
    labels_not_in_schema: [],
    changed_after_completion: false,
    ...extra,
  } as ItemSessionState;
}

const validateFields = new Ajv2020({ strict: true, allowUnionTypes: true, allErrors: true }).compile({
  type: 'object',
  additionalProperties: false,
  required: [...REASONING_EXPORT_FIELDS],
  properties: reasoningExportFieldSchemas,
});
function valid(fields: ReasoningExportFields): ReasoningExportFields {
  expect(validateFields(fields), JSON.stringify(validateFields.errors)).toBe(true);
  return fields;
}

describe('reasoning fields of an export record', () => {
  it('demo-03 is right for a wrong reason once the annotator judges its second step wrong', () => {
    const shownAt = '2026-12-01T09:00:00.000Z';
    const fields = valid(
      toExport(
        item('demo-03'),
        state('demo-03', {
          transcript: ' An apology, so not rude. I label this polite. Step two is wrong.',
          final_label: 'Polite',
          reasoning: {
            shown_at: shownAt,
            steps: [
              '1. The reply opens with "I\'m sorry", an apology.',
              '2. An apology means the assistant admits it was rude to the user before.',
              '3. Admitting that you were rude is always polite.',
              '4. So the reply is polite.',
            ],
            model_label: 'Polite',
            audio_ms: 2000,
          },
          step_judgments: [
            {
              index: 2,
              reward: -1,
              source: 'voice',
              kind: 'step',
              at: '2026-12-01T09:00:05.000Z',
              audio_ms: 4100,
              quote: 'Step two is wrong',
            },
          ],
        }),
      ),
    );
    expect(fields.reasoning_shown_at).toBe(shownAt);
    expect(fields.model_reasoning).toEqual({ label: 'Polite', steps: expect.arrayContaining(['4. So the reply is polite.']) });
    expect(fields.reasoning_features).toEqual({
      human_labels_mentioned: ['Polite'],
      model_labels_mentioned: ['Impolite', 'Polite'],
      human_final: 'Polite',
      model_final: 'Polite',
      finals_agree: true,
      first_contradicting_step: 2,
      first_wrong_step: 2,
      right_for_wrong_reason: true,
    });
  });

  it('before the reasoning is shown the model side comes from the item, and nothing about reasons is decided', () => {
    const fields = valid(toExport(item('demo-13'), state('demo-13', { final_label: 'Impolite' })));
    expect(fields.reasoning_shown_at).toBeNull();
    expect(fields.model_reasoning!.steps).toHaveLength(4);
    expect(fields.reasoning_features).toMatchObject({
      finals_agree: false,
      first_wrong_step: null,
      right_for_wrong_reason: null,
      first_contradicting_step: 4,
    });
  });

  it('an item without reasoning has no model side and no features', () => {
    expect(valid(toExport(item('demo-02'), null))).toEqual({
      model_reasoning: null,
      step_judgments: [],
      reasoning_shown_at: null,
      reasoning_features: null,
    });
  });
});
