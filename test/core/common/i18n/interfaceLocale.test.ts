import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../../../core/common/i18n/duration';
import { acceptedLanguages, pickInterfaceLocale } from '../../../../core/common/i18n/interfaceLocale';
import { mergeCatalogs } from '../../../../core/common/i18n/messageCatalog';

describe('pickInterfaceLocale', () => {
  it('takes a person’s choice over the system', () => {
    expect(pickInterfaceLocale('de', ['en-US'])).toBe('de');
    expect(pickInterfaceLocale('en', ['de-DE'])).toBe('en');
  });
  it('follows the system’s first language we speak, by its language subtag', () => {
    expect(pickInterfaceLocale('system', ['de-AT', 'en'])).toBe('de');
    expect(pickInterfaceLocale(null, ['fr-FR', 'de-CH', 'en'])).toBe('de');
    expect(pickInterfaceLocale(null, ['fr-FR', 'en-GB', 'de'])).toBe('en');
  });
  it('falls back to English on nothing known, or a malformed tag', () => {
    expect(pickInterfaceLocale(null, ['fr', 'ja'])).toBe('en');
    expect(pickInterfaceLocale('xx-not a tag', ['!!', 'de'])).toBe('de');
    expect(pickInterfaceLocale(undefined, [])).toBe('en');
  });
});

describe('formatDuration', () => {
  it('writes units and decimals the locale’s way', () => {
    expect(formatDuration(850, 'en')).toBe('850 ms');
    expect(formatDuration(12_400, 'en')).toBe('12 sec');
    expect(formatDuration(4_400, 'de')).toBe('4,4 Sek.');
    expect(formatDuration(245_000, 'en')).toBe('4 min 5 sec');
    expect(formatDuration(3_720_000, 'de')).toBe('1 Std. 2 Min.');
    expect(formatDuration(Number.NaN, 'de')).toBe('–');
  });
});

describe('mergeCatalogs', () => {
  it('refuses a key defined twice', () => {
    expect(() =>
      mergeCatalogs([
        { en: { 'a.x': 'X' }, de: { 'a.x': 'X' } },
        { en: { 'a.x': 'Y' }, de: {} },
      ]),
    ).toThrow(/a\.x/);
  });
});

describe('acceptedLanguages', () => {
  it('orders by q weight, ties in header order, and drops q=0 and *', () => {
    expect(acceptedLanguages('de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7')).toEqual(['de-DE', 'de', 'en-US', 'en']);
    expect(acceptedLanguages('en;q=0.5, de')).toEqual(['de', 'en']);
    expect(acceptedLanguages('de;q=0, fr, *;q=0.1')).toEqual(['fr']);
    expect(acceptedLanguages(undefined)).toEqual([]);
    expect(pickInterfaceLocale(null, acceptedLanguages('fr-CH, fr;q=0.9, de;q=0.8, en;q=0.7'))).toBe('de');
  });
});
