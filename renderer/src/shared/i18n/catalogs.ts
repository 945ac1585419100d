/**
 * The ids of every message the app can show: the shell composes the catalogs (app/appCatalogs.ts) and tells react-intl
 * their ids (app/messageIds.d.ts); features and shared pieces name ids by this type without importing the shell.
 */
export type AppMessageId = FormatjsIntl.Message['ids'];
