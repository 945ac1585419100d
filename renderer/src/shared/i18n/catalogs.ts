/**
 * Every catalog the app's screens use, composed. An area adds its `messages/{en,de}.json` here (one import line and
 * one entry); test/i18n/catalogs.test.ts fails on a catalog that is not composed or a key missing in a language.
 */
import { commonCatalogs } from '../../../../core/common/i18n/commonCatalogs';
import { mergeCatalogs, type AreaCatalogs } from '../../../../core/common/i18n/messageCatalog';
import appDe from '../../app/messages/de.json';
import appEn from '../../app/messages/en.json';
// i18na's areas: the shared components, capture, Start, Label, Review, Settings
import captureDe from '../../capture/messages/de.json';
import captureEn from '../../capture/messages/en.json';
import labelDe from '../../features/label/messages/de.json';
import labelEn from '../../features/label/messages/en.json';
import reviewDe from '../../features/review/messages/de.json';
import reviewEn from '../../features/review/messages/en.json';
import settingsDe from '../../features/settings/messages/de.json';
import settingsEn from '../../features/settings/messages/en.json';
import startDe from '../../features/start/messages/de.json';
import startEn from '../../features/start/messages/en.json';
import sharedDe from '../messages/de.json';
import sharedEn from '../messages/en.json';

const areas: AreaCatalogs[] = [
  commonCatalogs,
  { en: appEn, de: appDe },
  // i18na's areas
  { en: captureEn, de: captureDe },
  { en: labelEn, de: labelDe },
  { en: reviewEn, de: reviewDe },
  { en: settingsEn, de: settingsDe },
  { en: startEn, de: startDe },
  { en: sharedEn, de: sharedDe },
];

export const appCatalogs = mergeCatalogs(areas);

/** The ids of the English catalog: react-intl's ids are typed from it, so an unknown id fails `tsc`. */
export type AppMessageId =
  | keyof typeof appEn
  | keyof typeof commonCatalogs.en
  // i18na's areas
  | keyof typeof captureEn
  | keyof typeof labelEn
  | keyof typeof reviewEn
  | keyof typeof settingsEn
  | keyof typeof startEn
  | keyof typeof sharedEn;
