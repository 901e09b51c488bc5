import { describe, expect, expectTypeOf, it } from 'vitest';
import { OPERATIONS, type OperationName } from '../../src/contract/operations.js';
import type { ServiceContext, ServiceResult } from '../../src/engine/context.js';
import type { Handler, HandlerTable, InputOf } from '../../src/engine/handlers.js';

/*
 * The handler table is a type derived from the contract's operation list. The `@ts-expect-error` lines
 * below are checked by `npm run typecheck` (tsc over test/): if any of them compiled, tsc would report
 * the directive as unused and fail.
 */

type Ok = ServiceResult<never>;
declare const ctx: ServiceContext;

describe('the handler table follows the operation list', () => {
  it('has one key per operation and no other', () => {
    expectTypeOf<keyof HandlerTable>().toEqualTypeOf<OperationName>();
    const names: OperationName[] = OPERATIONS.map((op) => op.name as OperationName);
    expect(new Set(names).size).toBe(OPERATIONS.length);
  });

  it('types each handler by its operation input', () => {
    expectTypeOf<InputOf<'get_error_code'>>().toEqualTypeOf<{ brand: string; code: string }>();
    expectTypeOf<Parameters<Handler<'diagnose'>>[1]>().toHaveProperty('error_code');
    expectTypeOf<Parameters<Handler<'get_procedure'>>[1]>().toEqualTypeOf<{ chunk_id: string }>();
  });

  it('refuses a missing, a misspelt or a wrongly typed handler at compile time', () => {
    const checks = () => {
      const table = {} as HandlerTable;
      const { whoami: _dropped, ...withoutWhoami } = table;
      // @ts-expect-error a table without `whoami` is not a HandlerTable
      const missing: HandlerTable = withoutWhoami;
      // @ts-expect-error a misspelt operation name is not a key of the table
      const misspelt: HandlerTable = { ...table, diagnoze: table.diagnose };
      const wrongInput: Handler<'get_procedure'> = (c, input) => {
        // @ts-expect-error get_procedure's input has no `code`
        const code: string = input.code;
        return table.get_procedure(c, { chunk_id: code });
      };
      // @ts-expect-error the diagnostic handler cannot answer a search response
      const wrongOutput: Handler<'diagnose'> = table.search;
      // @ts-expect-error a handler of another operation does not fit
      table.get_error_code(ctx, { chunk_id: 'x' });
      return [missing, misspelt, wrongInput, wrongOutput] as unknown as Ok[];
    };
    // Never run: the point is that it compiles only with the errors marked above.
    expect(typeof checks).toBe('function');
  });
});
