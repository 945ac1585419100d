import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { dispatchApiCall } from '../../../../core/node/app/apiDispatcher';
import { AppService } from '../../../../core/node/app/appService';
import { DEMO_PROJECT_DIR } from '../../../../core/node/project/projectFolder';

async function app(): Promise<AppService> {
  const projectDir = path.join(await mkdtemp(path.join(tmpdir(), 'aloud-reason-api-')), 'proj');
  await cp(DEMO_PROJECT_DIR, projectDir, { recursive: true });
  return AppService.open({ projectDir, mode: 'browser', openEngine: null });
}

describe('model reasoning over the app API', () => {
  it('the project view never carries model reasoning; showReasoning gives it only after the blind label', async () => {
    const service = await app();
    const project = await service.project();
    const demo03 = project.items.find((i) => i.id === 'demo-03')!;
    expect(Object.keys(demo03).sort()).toEqual(['id', 'meta', 'text']);
    expect(JSON.stringify(project)).not.toContain('admits it was rude');

    await dispatchApiCall(service, 'openSession', ['ana']);
    await dispatchApiCall(service, 'openItem', ['demo-03']);
    expect(await dispatchApiCall(service, 'showReasoning', [])).toMatchObject({
      ok: true,
      result: { shown: null, withheld: 'blind_label_first' },
    });
    expect(await dispatchApiCall(service, 'judgeStep', [1, -1, 'key'])).toMatchObject({ ok: false, error: { code: 'conflict' } });
    await dispatchApiCall(service, 'commitLabel', ['Polite', 'key']);
    const shown = await dispatchApiCall(service, 'showReasoning', []);
    expect(shown).toMatchObject({ ok: true, result: { withheld: null, shown: { model_label: 'Polite' } } });
    const judged = await dispatchApiCall(service, 'judgeStep', [2, -1, 'click']);
    expect(judged.ok).toBe(true);
    const item = (judged as { result: { changed_items: Array<{ item_id: string; step_judgments: unknown[] }> } }).result.changed_items.find(
      (i) => i.item_id === 'demo-03',
    )!;
    expect(item.step_judgments).toMatchObject([{ index: 2, reward: -1, source: 'click', kind: 'step' }]);
    await service.close();
  });

  it.each<[unknown[]]>([[[0, 1, 'key']], [[1.5, 1, 'key']], [['2', 1, 'key']], [[2, 2, 'key']], [[2, -1, 'voice']], [[2, -1]]])(
    'judgeStep refuses %j before any handler runs',
    async (args) => {
      const service = await app();
      expect(await dispatchApiCall(service, 'judgeStep', args)).toMatchObject({ ok: false, error: { code: 'bad_request' } });
      await service.close();
    },
  );
});
