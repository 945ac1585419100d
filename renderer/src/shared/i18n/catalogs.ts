/**
 * Every catalog the app's screens use, composed. An area adds its `messages/{en,de}.json` here (one import line and
 * one entry); test/i18n/catalogs.test.ts fails on a catalog that is not composed or a key missing in a language.
 */
import { commonCatalogs } from '../../../../core/common/i18n/commonCatalogs';
import { mergeCatalogs, type AreaCatalogs } from '../../../../core/common/i18n/messageCatalog';
import appDe from '../../app/messages/de.json';
import appEn from '../../app/messages/en.json';
import guidelinesDe from '../../features/guidelines/messages/de.json';
import guidelinesEn from '../../features/guidelines/messages/en.json';

const areas: AreaCatalogs[] = [commonCatalogs, { en: appEn, de: appDe }, { en: guidelinesEn, de: guidelinesDe }];

export const appCatalogs = mergeCatalogs(areas);

/** The ids of the English catalog: react-intl's ids are typed from it, so an unknown id fails `tsc`. */
export type AppMessageId = keyof typeof appEn | keyof typeof commonCatalogs.en | keyof typeof guidelinesEn;
