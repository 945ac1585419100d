import { shownAnnotators, type AdjudicationQueue, type ItemStanding } from '../../../common/adjudication/adjudicationQueue';
import { adjudicate, decideFromRoom, readAdjudication, sendToHuddle } from '../../adjudication/projectAdjudication';
import { readRationaleFile, transcribeRationale } from '../../adjudication/spokenRationale';
import { engineScriptFile } from '../../engine/sessionEngine';
import { forkEngineLauncher } from '../../engine/engineProcessHost';
import { projectSessionSource } from '../../session/projectSessions';
import type { SessionSource } from '../../session/sessionSource';
import { loadProjectConfig } from '../../project/projectFolder';
import { type CliCommand, type CliIo, parseOptions, printJson, requireOption, UsageError } from '../cliSupport';

const USAGE = [
  'adjudicate --project DIR --queue [--json]',
  '       aloud adjudicate --project DIR --as NAME --item ID --label L --confidence high|medium|low --cause C[,C…]',
  '                        [--rationale TEXT | --rationale-audio FILE.wav [--model FILE] [--engine-script FILE]] [--flag-guideline TEXT] [--json]',
  '       aloud adjudicate --project DIR --as NAME --item ID --assign ANNOTATOR [--json]',
  '       aloud adjudicate --project DIR --as NAME --huddle ID,ID… [--json]',
  '       aloud adjudicate --project DIR --as NAME --from-room CODE --confidence high|medium|low --cause C[,C…] [--rationale TEXT] [--json]',
  '  --queue       items whose completed labels disagree (below adjudication.threshold), lowest agreement first (ties: least',
  '                certain first; adjudication.order: uncertainty puts least certain first); unanimous items are accepted',
  "                (adjudication.accept_unanimous), items with fewer than min_annotators labels listed apart. Each item's",
  '                uncertainty: {model, entropy (0 certain, 1 every label alike), label, probability} of adjudication.label_model',
  "  --as NAME     the adjudicator: decisions go to her own log, adjudication/<NAME>/events.jsonl (never an annotator's)",
  '  --label       the gold label; a second decision on an item revises the first (the history stays in the log)',
  "  --rationale-audio  your spoken rationale: transcribed verbatim by the project's whisper model (or --model FILE), kept",
  '                in adjudication/<NAME>/rationales/ and logged with the decision; --engine-script (or ALOUD_ENGINE_SCRIPT)',
  '                gives scripted text instead (tests, demos)',
  '  --assign      ask an annotator who has not seen the item to label it blind (she finds it first)',
  '  --huddle      open a huddle room over queued items (serve it with `aloud room resume CODE --project DIR`)',
  "  --from-room   record a huddle's outcome as your decisions, the room named: its majority on each revealed item",
].join('\n');

/** One item of the queue as printed: annotators by name, or "Annotator n" with blind_names. */
function queueEntry(s: ItemStanding, blind: boolean) {
  const shown = new Map(
    shownAnnotators(s.item_id, [...new Set([...s.labels, ...s.blind_labels].map((l) => l.annotator))], blind).map((a) => [
      a.annotator,
      a.shown,
    ]),
  );
  const order = (list: ItemStanding['labels']) =>
    list
      .map((l) => ({ annotator: shown.get(l.annotator)!, label: l.label }))
      .sort((a, b) => (a.annotator < b.annotator ? -1 : a.annotator > b.annotator ? 1 : 0));
  return {
    item_id: s.item_id,
    agreement: s.agreement,
    labels: order(s.labels),
    blind_labels: order(s.blind_labels),
    assigned_to: s.assigned_to,
    uncertainty: s.uncertainty,
  };
}

function queueReport(queue: AdjudicationQueue, blind: boolean, order: string) {
  return {
    items: queue.queue.map((s) => queueEntry(s, blind)),
    decided: queue.decided.map((s) => ({
      item_id: s.item_id,
      label: s.gold_label,
      adjudicator: s.decision!.adjudicator,
      decided_at: s.decision!.decided_at,
      room: s.decision!.room,
    })),
    too_few: queue.too_few.map((s) => queueEntry(s, blind)),
    counts: queue.counts,
    blind_names: blind,
    order,
  };
}

const causesOf = (value: string | undefined): string[] =>
  requireOption(value, '--cause')
    .split(',')
    .map((c) => c.trim())
    .filter(Boolean);

/** The adjudicate command over any session source (tests pass fixed states; the CLI reads the project's sessions). */
export function makeAdjudicateCommand(sessions: SessionSource): CliCommand {
  return {
    name: 'adjudicate',
    usage: USAGE,
    async run(argv: string[], io: CliIo) {
      const { values } = parseOptions(argv, {
        project: 'string',
        queue: false,
        as: 'string',
        item: 'string',
        label: 'string',
        confidence: 'string',
        cause: 'string',
        rationale: 'string',
        'rationale-audio': 'string',
        model: 'string',
        'engine-script': 'string',
        'flag-guideline': 'string',
        assign: 'string',
        huddle: 'string',
        'from-room': 'string',
        json: false,
      });
      const project = await loadProjectConfig(requireOption(values.project, '--project'));
      const blind = project.config.adjudication.blind_names;
      const actions = [
        values.queue,
        values.label !== undefined,
        values.assign !== undefined,
        values.huddle !== undefined,
        values['from-room'] !== undefined,
      ].filter(Boolean).length;
      if (actions !== 1) throw new UsageError('give one of --queue, --label (a decision), --assign, --huddle or --from-room');
      if (values.queue) {
        const read = await readAdjudication(project, sessions, { uncertainty: true });
        for (const w of read.warnings) io.err(`aloud adjudicate: warning: ${w}\n`);
        const report = queueReport(read.queue, blind, project.config.adjudication.order);
        if (values.json) printJson(io, report);
        else {
          const c = report.counts;
          io.out(
            `${c.queued} to adjudicate, ${c.decided} decided, ${c.unanimous} unanimous (accepted)${c.majority > 0 ? `, ${c.majority} by majority` : ''}, ${c.too_few} with too few labels\n`,
          );
          for (const item of report.items)
            io.out(
              `  ${item.item_id}  agreement ${item.agreement!.toFixed(2)}${item.uncertainty ? `  uncertainty ${item.uncertainty.entropy.toFixed(2)}` : ''}  ${item.labels.map((l) => `${l.annotator}: ${l.label}`).join(', ')}\n`,
            );
        }
        return 0;
      }
      const adjudicator = requireOption(values.as, '--as');
      if (values.huddle !== undefined) {
        const ids = values.huddle
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
        const result = await sendToHuddle(project, adjudicator, ids, sessions);
        if (values.json)
          printJson(io, { room: result.room, item_ids: ids, serve: `aloud room resume ${result.room} --project ${project.dir}` });
        else
          io.out(
            `huddle room ${result.room} over ${ids.length} item${ids.length === 1 ? '' : 's'}; open it with: aloud room resume ${result.room} --project ${project.dir}\n`,
          );
        return 0;
      }
      if (values['from-room'] !== undefined) {
        const result = await decideFromRoom(
          project,
          adjudicator,
          values['from-room'],
          {
            confidence: requireOption(values.confidence, '--confidence'),
            causes: causesOf(values.cause),
            rationale: values.rationale ?? null,
            guideline_flag: values['flag-guideline'] ?? null,
          },
          sessions,
        );
        // --json keeps its fields: what an item lacked in English (the app's catalog fields stay the app's)
        const outcomes = result.outcomes.map(({ why: _why, say: _say, ...o }) => o);
        if (values.json) printJson(io, { room: result.room, outcomes, decisions: result.events.length });
        else
          for (const o of result.outcomes) io.out(`  ${o.item_id}: ${o.decided ? `decided "${o.label}"` : `not decided (${o.reason})`}\n`);
        return 0;
      }
      const item = requireOption(values.item, '--item');
      if (values['rationale-audio'] !== undefined && (values.assign !== undefined || values.rationale !== undefined))
        throw new UsageError('--rationale-audio goes with a decision (--label), instead of --rationale');
      if (values.assign !== undefined) {
        const { events } = await adjudicate(project, adjudicator, { kind: 'assign', item_id: item, annotator: values.assign }, sessions);
        if (values.json) printJson(io, { item_id: item, assigned_to: values.assign, logged: events.length > 0 });
        else
          io.out(
            events.length > 0 ? `item ${item} assigned to ${values.assign}\n` : `item ${item} was assigned to ${values.assign} already\n`,
          );
        return 0;
      }
      const audioFile = values['rationale-audio'];
      // transcribed before the log is locked (whisper may take seconds); kept only if the decision is logged
      const spoken =
        audioFile === undefined
          ? null
          : await transcribeRationale(project, adjudicator, item, await readRationaleFile(audioFile), audioFile, {
              modelFile: values.model ?? null,
              engineScript: engineScriptFile(values['engine-script']),
              launchEngine: forkEngineLauncher,
            });
      const { events } = await adjudicate(
        project,
        adjudicator,
        {
          kind: 'decide',
          item_id: item,
          label: values.label!,
          confidence: requireOption(values.confidence, '--confidence'),
          causes: causesOf(values.cause),
          rationale: values.rationale ?? null,
          guideline_flag: values['flag-guideline'] ?? null,
        },
        sessions,
        spoken,
      );
      const event = events[0];
      const decision =
        event?.type === 'decision_recorded'
          ? {
              item_id: event.data.item_id,
              label: event.data.label,
              adopted: event.data.adopted,
              confidence: event.data.confidence,
              causes: event.data.causes,
              rationale: event.data.rationale?.text ?? null,
              rationale_kind: event.data.rationale?.kind ?? null,
              rationale_audio: event.data.rationale?.kind === 'spoken' ? event.data.rationale.audio : null,
              guideline_flag: event.data.guideline_flag,
              revises: event.data.revises,
              decided_at: event.ts,
              seq: event.seq,
            }
          : null;
      if (values.json) printJson(io, { decision, logged: decision !== null });
      else
        io.out(
          decision
            ? `item ${item}: gold "${decision.label}"${decision.revises ? ' (revised)' : ''}${decision.adopted.length > 0 ? `, adopting ${blind ? `${decision.adopted.length} annotator(s)` : decision.adopted.join(', ')}` : ', overriding every annotator'}\n`
            : `item ${item}: the same decision stands already; nothing logged\n`,
        );
      return 0;
    },
  };
}

export const adjudicateCommand: CliCommand = makeAdjudicateCommand(projectSessionSource);
