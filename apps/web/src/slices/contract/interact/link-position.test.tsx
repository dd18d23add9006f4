// @vitest-environment jsdom
import { act, cleanup, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLinkPosition, type DebugPosition } from './share-link';

afterEach(cleanup);

describe('useLinkPosition', () => {
  it("gives a link's debugger position until it is spent, then none; a new link's position is live", () => {
    const first: DebugPosition = { call: 0, step: 7, tab: 'step' };
    const initialProps: { at: DebugPosition | undefined } = { at: first };
    const { result, rerender } = renderHook(({ at }) => useLinkPosition(at), { initialProps });
    expect(result.current.at).toBe(first);
    // the user closes the debugger the link opened: 'Debug' then opens at the start
    act(() => result.current.spend());
    expect(result.current.at).toBeUndefined();
    rerender({ at: first });
    expect(result.current.at).toBeUndefined();
    const second: DebugPosition = { call: 1, step: 3, tab: 'profile' };
    rerender({ at: second });
    expect(result.current.at).toBe(second);
  });
});
