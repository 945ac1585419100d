/**
 * Every catalog the app's screens use, composed. An area adds its `messages/{en,de}.json` here (one import line and
 * one entry); test/i18n/catalogs.test.ts fails on a catalog that is not composed or a key missing in a language.
 */
import { commonCatalogs } from '../../../../core/common/i18n/commonCatalogs';
import { mergeCatalogs, type AreaCatalogs } from '../../../../core/common/i18n/messageCatalog';
import appDe from '../../app/messages/de.json';
import appEn from '../../app/messages/en.json';
// i18nb: adjudicate, agreement, deidentify, export, reasoning
import adjudicateDe from '../../features/adjudicate/messages/de.json';
import adjudicateEn from '../../features/adjudicate/messages/en.json';
import agreementDe from '../../features/agreement/messages/de.json';
import agreementEn from '../../features/agreement/messages/en.json';
import deidentifyDe from '../../features/deidentify/messages/de.json';
import deidentifyEn from '../../features/deidentify/messages/en.json';
import exportDe from '../../features/export/messages/de.json';
import exportEn from '../../features/export/messages/en.json';
import reasoningDe from '../../features/reasoning/messages/de.json';
import reasoningEn from '../../features/reasoning/messages/en.json';

const areas: AreaCatalogs[] = [
  commonCatalogs,
  { en: appEn, de: appDe },
  // i18nb
  { en: adjudicateEn, de: adjudicateDe },
  { en: agreementEn, de: agreementDe },
  { en: deidentifyEn, de: deidentifyDe },
  { en: exportEn, de: exportDe },
  { en: reasoningEn, de: reasoningDe },
];

export const appCatalogs = mergeCatalogs(areas);

/** The ids of the English catalog: react-intl's ids are typed from it, so an unknown id fails `tsc`. */
export type AppMessageId =
  | keyof typeof appEn
  | keyof typeof commonCatalogs.en
  // i18nb
  | keyof typeof adjudicateEn
  | keyof typeof agreementEn
  | keyof typeof deidentifyEn
  | keyof typeof exportEn
  | keyof typeof reasoningEn;
