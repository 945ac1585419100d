/**
 * Every catalog the app's screens use, composed by the shell (it composes the features). An area adds its
 * `messages/{en,de}.json` here (an import pair, an `areas` entry and its ids in AppMessageId); test/i18n/catalogs.test.ts
 * fails on a catalog that is not composed or a key missing in a language.
 */
import commonDe from '../../../core/common/i18n/messages/de.json';
import commonEn from '../../../core/common/i18n/messages/en.json';
import { mergeCatalogs, type AreaCatalogs } from '../../../core/common/i18n/messageCatalog';
import appDe from './messages/de.json';
import appEn from './messages/en.json';
import sharedDe from '../shared/messages/de.json';
import sharedEn from '../shared/messages/en.json';
import captureDe from '../capture/messages/de.json';
import captureEn from '../capture/messages/en.json';
import adjudicateDe from '../features/adjudicate/messages/de.json';
import adjudicateEn from '../features/adjudicate/messages/en.json';
import agreementDe from '../features/agreement/messages/de.json';
import agreementEn from '../features/agreement/messages/en.json';
import codingDe from '../features/coding/messages/de.json';
import codingEn from '../features/coding/messages/en.json';
import deidentifyDe from '../features/deidentify/messages/de.json';
import deidentifyEn from '../features/deidentify/messages/en.json';
import exportDe from '../features/export/messages/de.json';
import exportEn from '../features/export/messages/en.json';
import guidelinesDe from '../features/guidelines/messages/de.json';
import guidelinesEn from '../features/guidelines/messages/en.json';
import labelDe from '../features/label/messages/de.json';
import labelEn from '../features/label/messages/en.json';
import projectDe from '../features/project/messages/de.json';
import projectEn from '../features/project/messages/en.json';
import reasoningDe from '../features/reasoning/messages/de.json';
import reasoningEn from '../features/reasoning/messages/en.json';
import reviewDe from '../features/review/messages/de.json';
import reviewEn from '../features/review/messages/en.json';
import roomsDe from '../features/rooms/messages/de.json';
import roomsEn from '../features/rooms/messages/en.json';
import settingsDe from '../features/settings/messages/de.json';
import settingsEn from '../features/settings/messages/en.json';
import startDe from '../features/start/messages/de.json';
import startEn from '../features/start/messages/en.json';
import refusalDe from '../../../core/common/refusal/messages/de.json';
import refusalEn from '../../../core/common/refusal/messages/en.json';

const areas: AreaCatalogs[] = [
  { en: commonEn, de: commonDe },
  { en: appEn, de: appDe },
  { en: sharedEn, de: sharedDe },
  { en: captureEn, de: captureDe },
  { en: adjudicateEn, de: adjudicateDe },
  { en: agreementEn, de: agreementDe },
  { en: codingEn, de: codingDe },
  { en: deidentifyEn, de: deidentifyDe },
  { en: exportEn, de: exportDe },
  { en: guidelinesEn, de: guidelinesDe },
  { en: labelEn, de: labelDe },
  { en: projectEn, de: projectDe },
  { en: reasoningEn, de: reasoningDe },
  { en: reviewEn, de: reviewDe },
  { en: roomsEn, de: roomsDe },
  { en: settingsEn, de: settingsDe },
  { en: startEn, de: startDe },
  { en: refusalEn, de: refusalDe },
];

export const appCatalogs = mergeCatalogs(areas);

/** The ids of the English catalogs: react-intl's ids are typed from them, so an unknown id fails `tsc`. */
export type AppMessageId =
  | keyof typeof commonEn
  | keyof typeof appEn
  | keyof typeof sharedEn
  | keyof typeof captureEn
  | keyof typeof adjudicateEn
  | keyof typeof agreementEn
  | keyof typeof codingEn
  | keyof typeof deidentifyEn
  | keyof typeof exportEn
  | keyof typeof guidelinesEn
  | keyof typeof labelEn
  | keyof typeof projectEn
  | keyof typeof reasoningEn
  | keyof typeof reviewEn
  | keyof typeof roomsEn
  | keyof typeof settingsEn
  | keyof typeof startEn
  | keyof typeof refusalEn;
