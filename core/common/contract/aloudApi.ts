/**
 * The one app API, composed of the domains' slices: each domain declares its methods and their argument checks beside
 * its code (core/common/<domain>/<domain>Api.ts) and its handlers in core/node/<domain>/. The renderer calls it through
 * a client; Electron (IPC) and browser mode (HTTP on 127.0.0.1) are two transports of the same contract.
 */
import type { AdjudicationApi } from '../adjudication/adjudicationApi';
import type { AgreementApi } from '../agreement/agreementApi';
import type { CodingApi } from '../coding/codingApi';
import type { DeidentifyApi } from '../deidentify/deidentifyApi';
import type { ExportApi, ExportEvent } from '../export/exportApi';
import type { GoldApi } from '../labelModels/goldApi';
import type { ModelsApi, ModelsEvent } from '../models/modelsApi';
import type { PacksApi, PacksEvent } from '../packs/packsApi';
import type { ProjectApi } from '../project/projectApi';
import type { RoomsApi, RoomsEvent } from '../rooms/roomsApi';
import type { SessionApi, SessionEvent } from '../session/sessionApi';
import type { SettingsApi } from '../settings/settingsApi';

/** Every method of the app API: the intersection of the domains' slices (apiMethods.ts composes their tables alike). */
export type AloudApi = SettingsApi &
  ProjectApi &
  SessionApi &
  ExportApi &
  AgreementApi &
  GoldApi &
  RoomsApi &
  ModelsApi &
  PacksApi &
  CodingApi &
  DeidentifyApi &
  AdjudicationApi;

export type AloudMethod = keyof AloudApi;

/** Events pushed to the renderer (IPC messages in Electron, server-sent events in browser mode): the domains' own. */
export type AloudEvent = SessionEvent | ExportEvent | PacksEvent | ModelsEvent | RoomsEvent;
