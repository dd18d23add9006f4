import { describe, expect, it } from 'vitest';
import { clientKey, PageLimiter } from '../src/page-limit';

describe('the page budget of each client', () => {
  it('allows `max` pages per window per client, then says when the window ends', () => {
    let t = 0;
    const limiter = new PageLimiter({ max: 2, timeWindowMs: 60_000 }, () => t);
    expect(limiter.take('203.0.113.1')).toEqual({ allowed: true, limit: 2, remaining: 1, resetSeconds: 60 });
    t = 1_000;
    expect(limiter.take('203.0.113.1').allowed).toBe(true);
    expect(limiter.take('203.0.113.1')).toEqual({ allowed: false, limit: 2, remaining: 0, resetSeconds: 59 });
    expect(limiter.take('203.0.113.2').allowed).toBe(true);
    t = 60_000;
    expect(limiter.take('203.0.113.1')).toMatchObject({ allowed: true, remaining: 1 });
  });

  it('keeps at most `maxClients` windows, dropping the oldest', () => {
    let t = 0;
    const limiter = new PageLimiter({ max: 1, timeWindowMs: 60_000 }, () => t, 2);
    limiter.take('192.0.2.1');
    t = 1;
    limiter.take('192.0.2.2');
    t = 2;
    limiter.take('192.0.2.3');
    // the first client's window was dropped: it starts a new one
    expect(limiter.take('192.0.2.1').allowed).toBe(true);
    expect(limiter.take('192.0.2.3').allowed).toBe(false);
  });

  it('counts an IPv6 client by its /64, an IPv4-mapped address as IPv4', () => {
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientKey('::1')).toBe('0:0:0:0::/64');
    expect(clientKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(clientKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(clientKey('203.0.113.9')).toBe('203.0.113.9');
  });
});
