import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { IntlProvider } from 'react-intl';
import { describe, expect, it } from 'vitest';
import { formatClock } from '../../../core/common/transcript/transcriptMarks';
import { appCatalogs } from '../../../renderer/src/app/appCatalogs';
import { useFormatClock } from '../../../renderer/src/shared/i18n/useDuration';

const TIMES = [0, 99, 5_000, 63_249, 599_950, 600_000, 3_723_400];

function Clocks() {
  const clock = useFormatClock();
  return <>{TIMES.map(clock).join('|')}</>;
}

function clocks(locale: 'en' | 'de'): string[] {
  return renderToStaticMarkup(
    <IntlProvider locale={locale} messages={appCatalogs[locale]}>
      <Clocks />
    </IntlProvider>,
  ).split('|');
}

describe("a recording's clock on screen", () => {
  it('is the CLI’s own clock in English, character for character', () => {
    expect(clocks('en')).toEqual(TIMES.map(formatClock));
    expect(clocks('en')).toEqual(['0:00.0', '0:00.0', '0:05.0', '1:03.2', '9:59.9', '10:00.0', '62:03.4']);
  });

  it('has the German decimal comma in German', () => {
    expect(clocks('de')).toEqual(['0:00,0', '0:00,0', '0:05,0', '1:03,2', '9:59,9', '10:00,0', '62:03,4']);
  });

  it('is the only clock the screens use (core’s formatClock is the CLI’s and the exports’)', () => {
    const root = path.resolve(import.meta.dirname, '../../../renderer/src');
    const users = (readdirSync(root, { recursive: true }) as string[])
      .filter((f) => /\.tsx?$/.test(f))
      .filter((f) => /import \{[^}]*\bformatClock\b[^}]*\} from '[^']*transcriptMarks'/.test(readFileSync(path.join(root, f), 'utf8')));
    expect(users).toEqual([]);
  });
});
