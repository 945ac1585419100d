import { describe, expect, it } from 'vitest';
import { ALOUD_METHODS, API_METHODS, API_SLICES } from '../../../../core/common/contract/apiMethods';
import type { AppContext } from '../../../../core/node/app/appContext';
import { apiHandlers, DOMAIN_HANDLERS } from '../../../../core/node/app/appService';

// the handler factories only close over the context: building them reads nothing of it
const noContext = {} as AppContext;
const handlersOf = Object.entries(DOMAIN_HANDLERS).map(([domain, make]) => ({ domain, methods: Object.keys(make(noContext)) }));
const slices = Object.entries(API_SLICES).map(([slice, table]) => ({ slice, table: table as Record<string, unknown> }));

describe('the app API composed of domain slices', () => {
  it('the method table is exactly the union of the slices, each method in one slice, its entry the slice’s own', () => {
    const declared = slices.flatMap(({ table }) => Object.keys(table));
    expect(new Set(declared).size, 'a method declared by two slices').toBe(declared.length);
    expect([...declared].sort()).toEqual([...ALOUD_METHODS].sort());
    for (const { slice, table } of slices)
      for (const [method, spec] of Object.entries(table))
        expect(API_METHODS[method as keyof typeof API_METHODS], `${slice}.${method}`).toBe(spec);
  });

  it('every method has exactly one arg check per parameter, each a function under a name', () => {
    for (const method of ALOUD_METHODS) {
      const names = API_METHODS[method].params.map(([name]) => name);
      expect(new Set(names).size, method).toBe(names.length);
      for (const [name, check] of API_METHODS[method].params) expect(typeof check, `${method}: ${name}`).toBe('function');
    }
  });

  it('every method has exactly one handler, in the domain whose slice declares it', () => {
    const handled = handlersOf.flatMap(({ methods }) => methods);
    expect(new Set(handled).size, 'a method handled by two domains').toBe(handled.length);
    expect([...handled].sort()).toEqual([...ALOUD_METHODS].sort());
    const table = apiHandlers(noContext);
    expect(Object.keys(table).sort()).toEqual([...ALOUD_METHODS].sort());
    for (const method of ALOUD_METHODS) expect(typeof table[method], method).toBe('function');
    // a slice is served by one domain's handlers, never split across two
    for (const { slice, table: specs } of slices) {
      const owners = new Set(Object.keys(specs).map((m) => handlersOf.find(({ methods }) => methods.includes(m))?.domain));
      expect(owners.size, `slice ${slice} handled by ${[...owners].join(', ')}`).toBe(1);
    }
  });
});
