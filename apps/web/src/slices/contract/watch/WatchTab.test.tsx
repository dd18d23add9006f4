// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type {
  EntrypointSchema,
  WatchDelivery,
  WatchRule,
  WatchRuleCreated,
  WatchRuleInput,
} from '@michelscope/api-types';
import { renderApp } from '../../../app/testing/render-app';
import { anyQueryRoute, mockFetch, resourceRoute, type Route } from '../../../app/testing/mock-fetch';
import { contractFrame } from '../../../app/testing/contract-page';
import { buildRule, EMPTY_FORM, toMutez } from './watch-form';
import { newDeliveryIds, tokenKey } from './watch-token';

const KT = 'KT1RJ6PbjHpwc3M5rw5s2Nbmefwbuwbdxton';
const SENDER = 'tz1KqTpEZ7Yob7QbPE4Hy4Wo8fHG8LhKxZSx';
const TOKEN = `msw_${'A'.repeat(43)}`;
const SECRET = 'whsec_secretsecretsecret';
const OPG = 'ooZjkMNcZhdb7xF6uDgE7VUNRz6XjoA3A6HRixPXmSLYzCbCVQb';
const at = { network: 'mainnet', address: KT };

const ENTRYPOINTS: EntrypointSchema[] = [
  { name: 'increment', typedef: [], schema: null },
  { name: 'decrement', typedef: [], schema: null },
];

const RULE: WatchRule = {
  id: 'wr_AAAAAAAAAAAAAAAA',
  network: 'mainnet',
  address: KT,
  condition: { kind: 'call', entrypoints: ['increment'], amount_gte: '5000000', status: ['applied'] },
  url: 'https://hooks.example/<script>alert(1)</script>',
  enabled: true,
  created_at: '2026-11-30T08:00:00Z',
};

const delivery = (id: string, fields: Partial<WatchDelivery> = {}): WatchDelivery => ({
  id,
  idempotency_key: `key-${id}`,
  level: 120,
  operation_hash: OPG,
  status: 'delivered',
  attempts: 2,
  last_status_code: 200,
  last_error: null,
  latency_ms: 43,
  created_at: '2026-11-30T08:01:00Z',
  delivered_at: '2026-11-30T08:01:01Z',
  next_attempt_at: null,
  matched: { kind: 'call', entrypoint: 'increment' },
  ...fields,
});

function routes(extra: Route[] = []) {
  return mockFetch([
    ...extra,
    ...contractFrame('mainnet', KT),
    ['GET /search/v1/account/', new Response(null, { status: 204 })],
    anyQueryRoute('opgList', { ...at, size: 10, lastId: null }, []),
    resourceRoute('entrypoints', at, ENTRYPOINTS),
  ]);
}

/** The Authorization header of the fetch calls whose URL ends with `suffix`. */
function authOf(fetchFn: ReturnType<typeof mockFetch>['fetchFn'], method: string, suffix: string) {
  return fetchFn.mock.calls
    .filter(
      ([u, init]) =>
        (u instanceof Request ? u.url : u.toString()).endsWith(suffix) && (init?.method ?? 'GET') === method,
    )
    .map(([, init]) => (init?.headers as Record<string, string> | undefined)?.Authorization);
}

async function choose(label: string, option: string) {
  fireEvent.mouseDown(await screen.findByRole('combobox', { name: label }));
  fireEvent.click(await screen.findByRole('option', { name: option }));
}

beforeEach(() => {
  vi.stubGlobal('scrollTo', vi.fn());
  localStorage.clear();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
  localStorage.clear();
});

describe('watch form', () => {
  it('converts tez to mutez on the digits, never through a float', () => {
    expect(toMutez('5', 'tez')).toBe('5000000');
    expect(toMutez('0.000001', 'tez')).toBe('1');
    expect(toMutez('1.1', 'tez')).toBe('1100000');
    expect(toMutez('0.3', 'tez')).toBe('300000');
    expect(toMutez('123456789.123456', 'tez')).toBe('123456789123456');
    expect(toMutez('1.0000001', 'tez')).toBeNull();
    expect(toMutez('5', 'mutez')).toBe('5');
    expect(toMutez('5.5', 'mutez')).toBeNull();
    expect(toMutez('-1', 'tez')).toBeNull();
    expect(toMutez('18446744073709551616', 'mutez')).toBeNull();
  });

  it('builds each kind and says what is missing', () => {
    const url = 'https://hooks.example/x';
    expect(buildRule({ ...EMPTY_FORM, kind: 'storage', url }, at)).toEqual({
      errors: { path: expect.any(String), above: expect.any(String) },
    });
    expect(buildRule({ ...EMPTY_FORM, kind: 'storage', path: 'total', below: '-5', url }, at)).toEqual({
      rule: { ...at, url, condition: { kind: 'storage', path: 'total', below: '-5' } },
    });
    expect(buildRule({ ...EMPTY_FORM, kind: 'big_map', bigMap: '12', bigMapKey: SENDER, url }, at)).toEqual({
      rule: { ...at, url, condition: { kind: 'big_map', big_map: 12, key: SENDER } },
    });
    expect(buildRule({ ...EMPTY_FORM, kind: 'event', eventTag: 'minted', url }, at)).toEqual({
      rule: { ...at, url, condition: { kind: 'event', tags: ['minted'] } },
    });
    expect(
      buildRule({ ...EMPTY_FORM, kind: 'token_transfer', tokenAmount: '100', tokenId: '0', url }, at),
    ).toEqual({
      rule: { ...at, url, condition: { kind: 'token_transfer', amount_gte: '100', token_id: '0' } },
    });
    expect(buildRule({ ...EMPTY_FORM, kind: 'origination', url: 'ftp://x' }, at)).toEqual({
      errors: { url: 'An http:// or https:// URL' },
    });
    expect(buildRule({ ...EMPTY_FORM, status: 'failed', amountMin: '2', amountMax: '1', url }, at)).toEqual({
      errors: { amountMax: 'The maximum is below the minimum' },
    });
  });

  it('finds the new deliveries between two reads', () => {
    expect(newDeliveryIds(new Set(['a']), [{ id: 'c' }, { id: 'b' }, { id: 'a' }])).toEqual(['b', 'c']);
    expect(newDeliveryIds(new Set(['a']), [{ id: 'a' }])).toEqual([]);
  });
});

describe('the Watch tab', () => {
  it('creates a calls rule with the exact body, shows the token and secret once, then lists the rules and their log', async () => {
    let created = false;
    const create = resourceRoute('watchCreate', (): WatchRuleCreated => {
      created = true;
      return { rule: RULE, secret: SECRET, token: TOKEN };
    });
    const mock = routes([
      create,
      resourceRoute('watchRules', () => (created ? [RULE] : [])),
      resourceRoute('watchDeliveries', { id: RULE.id, size: 20 }, [
        delivery('d2', { status: 'pending', last_status_code: 500, last_error: 'HTTP 500', latency_ms: 12 }),
        delivery('d1'),
      ]),
    ]);
    const { router } = renderApp(`/mainnet/${KT}/watch`);
    await screen.findByRole('heading', { name: 'New rule' });
    expect(router.state.matches.at(-1)?.route.id).toBe('watch');
    expect((await screen.findByRole('tab', { name: 'Watch' })).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText(/No management token in this browser yet/)).toBeTruthy();

    await choose('Entrypoint', 'increment');
    fireEvent.change(screen.getByRole('textbox', { name: 'Minimum amount (tez)' }), {
      target: { value: '5' },
    });
    fireEvent.change(screen.getByRole('textbox', { name: 'Webhook URL' }), {
      target: { value: 'https://hooks.example/in' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));

    const box = await screen.findByRole('region', { name: 'Management token and secret' });
    const body: WatchRuleInput = {
      network: 'mainnet',
      address: KT,
      condition: { kind: 'call', entrypoints: ['increment'], amount_gte: '5000000', status: ['applied'] },
      url: 'https://hooks.example/in',
    };
    expect(mock.callsOf(create).map((c) => c.body)).toEqual([body]);
    // a first rule: no token sent, a new one made
    expect(authOf(mock.fetchFn, 'POST', '/v1/watch/rules')).toEqual([undefined]);
    expect(within(box).getByText(TOKEN)).toBeTruthy();
    expect(within(box).getByText(SECRET)).toBeTruthy();
    expect(within(box).getByText(/not shown again/)).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    expect(within(box).getByRole('button', { name: 'Copy secret' })).toBeTruthy();
    expect(localStorage.getItem(tokenKey(location.origin))).toBe(TOKEN);

    // the rules, read with the token, and the delivery log
    const list = await screen.findByRole('list', { name: 'Your rules' });
    await within(list).findByText(/calls of increment, amount ≥ 5000000 mutez/);
    // the API's strings are text
    expect(within(list).getByText('https://hooks.example/<script>alert(1)</script>')).toBeTruthy();
    expect(document.querySelector('script')).toBeNull();
    const log = await within(list).findByRole('table', { name: `Delivery log of ${RULE.id}` });
    const rows = within(log).getAllByRole('row');
    expect(rows).toHaveLength(3);
    expect(rows[1]!.textContent).toContain('pending');
    expect(rows[1]!.textContent).toContain('500');
    expect(rows[1]!.textContent).toContain('HTTP 500');
    expect(rows[2]!.textContent).toContain('delivered');
    expect(rows[2]!.textContent).toContain('43 ms');
    expect(rows[2]!.textContent).toContain('120');
    const op = within(rows[2]!).getByRole('link', { name: /ooZjkM/ });
    expect(op.getAttribute('href')).toBe(`/mainnet/opg/${OPG}/contents`);
    expect(authOf(mock.fetchFn, 'GET', '/v1/watch/rules').at(-1)).toBe(`Bearer ${TOKEN}`);
    expect(authOf(mock.fetchFn, 'GET', `/v1/watch/rules/${RULE.id}/deliveries?size=20`)[0]).toBe(
      `Bearer ${TOKEN}`,
    );

    // shown once: dismissed, it is gone, and a second rule adds to the same token
    fireEvent.click(within(box).getByRole('button', { name: 'I have saved them' }));
    expect(screen.queryByRole('region', { name: 'Management token and secret' })).toBeNull();
    expect(screen.queryByText(SECRET)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await waitFor(() => expect(mock.callsOf(create)).toHaveLength(2));
    expect(authOf(mock.fetchFn, 'POST', '/v1/watch/rules').at(-1)).toBe(`Bearer ${TOKEN}`);
  });

  it('lists a stored token’s rules and deletes one with DELETE', async () => {
    localStorage.setItem(tokenKey(location.origin), TOKEN);
    let deleted = false;
    const mock = routes([
      [
        `DELETE /v1/watch/rules/${RULE.id}`,
        () => {
          deleted = true;
          return Response.json({ deleted: RULE.id });
        },
      ],
      resourceRoute('watchRules', () => (deleted ? [] : [RULE])),
      resourceRoute('watchDeliveries', { id: RULE.id, size: 20 }, []),
    ]);
    renderApp(`/mainnet/${KT}/watch`);
    const list = await screen.findByRole('list', { name: 'Your rules' });
    await within(list).findByText('No deliveries yet.');
    fireEvent.click(within(list).getByRole('button', { name: `Delete rule ${RULE.id}` }));
    await screen.findByText('This token holds no rules.');
    expect(authOf(mock.fetchFn, 'DELETE', `/v1/watch/rules/${RULE.id}`)).toEqual([`Bearer ${TOKEN}`]);
  });

  it('shows a pasted token’s rules', async () => {
    const other = `msw_${'b'.repeat(43)}`;
    const mock = routes([
      resourceRoute('watchRules', [RULE]),
      resourceRoute('watchDeliveries', { id: RULE.id, size: 20 }, []),
    ]);
    renderApp(`/mainnet/${KT}/watch`);
    const input = await screen.findByRole('textbox', { name: 'Management token' });
    fireEvent.change(input, { target: { value: 'nonsense' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show rules' }));
    expect(screen.getByText(/msw_ and 43 letters/)).toBeTruthy();
    fireEvent.change(input, { target: { value: other } });
    fireEvent.click(screen.getByRole('button', { name: 'Show rules' }));
    await screen.findByRole('list', { name: 'Your rules' });
    expect(authOf(mock.fetchFn, 'GET', '/v1/watch/rules')).toEqual([`Bearer ${other}`]);
    expect(localStorage.getItem(tokenKey(location.origin))).toBe(other);
  });

  it("shows the API's 400 message by the field it is about, or in an alert", async () => {
    let message = 'the webhook URL must not reach a private address (127.0.0.1)';
    routes([resourceRoute('watchCreate', () => Response.json({ message }, { status: 400 }))]);
    renderApp(`/mainnet/${KT}/watch`);
    const url = await screen.findByRole('textbox', { name: 'Webhook URL' });
    fireEvent.change(url, { target: { value: 'http://127.0.0.1:9/hook' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    await screen.findByText(message);
    expect(url.getAttribute('aria-invalid')).toBe('true');
    expect(screen.queryByRole('region', { name: 'Management token and secret' })).toBeNull();

    message = 'condition: something else is wrong';
    fireEvent.click(screen.getByRole('button', { name: 'Create rule' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });

  it('notifies in this browser when a new delivery appears', async () => {
    localStorage.setItem(tokenKey(location.origin), TOKEN);
    const shown: { title: string; body: string | undefined }[] = [];
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = vi.fn(async () => {
        FakeNotification.permission = 'granted';
        return 'granted' as const;
      });
      constructor(title: string, options?: NotificationOptions) {
        shown.push({ title, body: options?.body });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    let log = [delivery('d1')];
    routes([
      resourceRoute('watchRules', [RULE]),
      resourceRoute('watchDeliveries', { id: RULE.id, size: 20 }, () => log),
    ]);
    renderApp(`/mainnet/${KT}/watch`);
    const list = await screen.findByRole('list', { name: 'Your rules' });
    await within(list).findByRole('table', { name: `Delivery log of ${RULE.id}` });
    fireEvent.click(within(list).getByRole('checkbox', { name: 'Notify me in this browser' }));
    await waitFor(() =>
      expect(within(list).getByRole('checkbox', { name: 'Notify me in this browser' })).toHaveProperty(
        'checked',
        true,
      ),
    );
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    expect(shown).toEqual([]);
    log = [delivery('d2', { level: 121 }), delivery('d1')];
    // the next refresh (every 5 s) finds d2
    await act(() => new Promise((r) => setTimeout(r, 5_500)));
    await waitFor(() => expect(shown).toHaveLength(1));
    expect(shown[0]!.title).toBe(`Watch rule ${RULE.id} matched`);
    expect(shown[0]!.body).toContain('level 121');
  });

  it('says when notifications are denied or unsupported', async () => {
    localStorage.setItem(tokenKey(location.origin), TOKEN);
    vi.stubGlobal('Notification', undefined);
    routes([
      resourceRoute('watchRules', [RULE]),
      resourceRoute('watchDeliveries', { id: RULE.id, size: 20 }, []),
    ]);
    renderApp(`/mainnet/${KT}/watch`);
    const box = await screen.findByRole('checkbox', { name: 'Notify me in this browser' });
    fireEvent.click(box);
    await screen.findByText('This browser does not support notifications.');
    expect((box as HTMLInputElement).checked).toBe(false);
    cleanup();
    class Denied {
      static permission: NotificationPermission = 'denied';
      static requestPermission = vi.fn();
    }
    vi.stubGlobal('Notification', Denied);
    renderApp(`/mainnet/${KT}/watch`);
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Notify me in this browser' }));
    await screen.findByText(/Notifications are blocked for this site/);
  });
});
