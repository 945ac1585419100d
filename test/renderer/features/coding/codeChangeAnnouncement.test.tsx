// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react';
import { IntlProvider, useIntl } from 'react-intl';
import { afterEach, describe, expect, it } from 'vitest';
import { useCodeChangeAnnouncement } from '../../../../renderer/src/features/coding/useCodeChangeAnnouncement';
import { appCatalogs } from '../../../../renderer/src/app/appCatalogs';

type Shown = { annotator: string; item_id: string; mine: Record<string, Array<{ code: string }>> };

/** The status the coding view keeps, fed with the views the host sends. */
function Said({ view }: { view: Shown }) {
  const intl = useIntl();
  const change = useCodeChangeAnnouncement(view);
  return <p role="status">{change && intl.formatMessage({ id: change.id }, { code: change.code, unit: change.unit })}</p>;
}

const shown = (mine: Shown['mine'], item = 'demo-01', annotator = 'ana'): Shown => ({ annotator, item_id: item, mine });

afterEach(cleanup);

describe('a code set or taken back is said, in the interface language', () => {
  for (const [locale, added, removed] of [
    ['en', 'Doubts set on u1', 'Doubts removed from u1'],
    ['de', 'Doubts auf u1 gesetzt', 'Doubts von u1 entfernt'],
  ] as const) {
    it(`${locale}: the change and nothing else; another protocol is no change`, () => {
      const at = (view: Shown) => (
        <IntlProvider locale={locale} messages={appCatalogs[locale]}>
          <Said view={view} />
        </IntlProvider>
      );
      const { rerender } = render(at(shown({ u0: [{ code: 'Reasons' }] })));
      expect(screen.getByRole('status').textContent).toBe('');
      rerender(at(shown({ u0: [{ code: 'Reasons' }], u1: [{ code: 'Doubts' }] })));
      expect(screen.getByRole('status').textContent).toBe(added);
      rerender(at(shown({ u0: [{ code: 'Reasons' }], u1: [] })));
      expect(screen.getByRole('status').textContent).toBe(removed);
      // the same item of another annotator, and another item: what they hold was not done now
      rerender(at(shown({ u0: [{ code: 'Doubts' }] }, 'demo-01', 'ben')));
      expect(screen.getByRole('status').textContent).toBe('');
      rerender(at(shown({ u3: [{ code: 'Doubts' }] }, 'demo-02', 'ben')));
      expect(screen.getByRole('status').textContent).toBe('');
    });
  }
});
