/**
 * The one name of a visitor (server/lib/visitor.ts) and the socket caps built on it: IPv4 as it
 * is, IPv4-mapped IPv6 as its IPv4, IPv6 as its /64 whatever the written form, an onion circuit
 * as itself; onion visitors share one admin-password bucket; a circuit holds few sockets.
 */
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { markOnionSocket } from '../../../server/lib/onion-socket.js';
import {
  ALL_ONION_VISITORS,
  isOnionVisitor,
  passwordGuesser,
  visitorKey,
  visitorOfConnection,
  visitorOfRequest,
} from '../../../server/lib/visitor.js';
import {
  ONION_BUCKET,
  ONION_SOCKETS_PER_CIRCUIT,
  socketBuckets,
  SocketCounter,
} from '../../../server/realtime/admission.js';
import { Connection } from '../../../server/realtime/connection.js';

/** A socket that came through the onion entrance on `circuit`. */
function onionSocket(circuit: string): Socket {
  const socket = new Socket();
  markOnionSocket(socket, circuit);
  return socket;
}

describe('visitorKey', () => {
  it('names an IPv4 visitor by the address, and an IPv4-mapped IPv6 address by its IPv4', () => {
    expect(visitorKey('203.0.113.7')).toBe('203.0.113.7');
    expect(visitorKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(visitorKey('::FFFF:203.0.113.7')).toBe('203.0.113.7');
    expect(visitorKey('::ffff:cb00:7107')).toBe('203.0.113.7');
    expect(visitorKey('0:0:0:0:0:ffff:cb00:7107')).toBe('203.0.113.7');
    expect(visitorKey('203.0.113.8')).not.toBe(visitorKey('203.0.113.7'));
  });

  it('names every address of one IPv6 /64 alike, in any written form', () => {
    const forms = [
      '2001:db8:1:2::1',
      '2001:0db8:0001:0002:0000:0000:0000:0001',
      '2001:DB8:1:2:ffff:ffff:ffff:ffff',
      '2001:db8:1:2:a:b:c:d',
      '2001:db8:1:2::',
      '2001:db8:1:2:0:0:1.2.3.4',
      '2001:db8:1:2::5%eth0',
    ];
    const keys = new Set(forms.map((address) => visitorKey(address)));
    expect([...keys]).toEqual(['2001:db8:1:2::/64']);
  });

  it('tells different /64s apart, however close', () => {
    const keys = ['2001:db8:1:2::1', '2001:db8:1:3::1', '2001:db8:2:2::1', '2001:db9:1:2::1'].map(
      (address) => visitorKey(address),
    );
    expect(new Set(keys).size).toBe(4);
    expect(visitorKey('::1')).toBe('0:0:0:0::/64');
    expect(visitorKey('fe80::1')).not.toBe(visitorKey('2001:db8::1'));
  });

  it('names an onion visitor by its circuit, never by the circuit /96 as an IPv6 /64', () => {
    const one = 'fc00:dead:beef:4dad::0:1';
    const two = 'fc00:dead:beef:4dad::0:2';
    expect(visitorKey(one, onionSocket(one))).toBe(`circuit:${one}`);
    expect(visitorKey(two, onionSocket(two))).toBe(`circuit:${two}`);
    expect(isOnionVisitor(visitorKey(one, onionSocket(one)))).toBe(true);
    // The same address without the entrance's mark is an ordinary (IPv6) visitor.
    expect(visitorKey(one, new Socket())).toBe('fc00:dead:beef:4dad::/64');
    expect(isOnionVisitor(visitorKey(one))).toBe(false);
  });

  it('leaves what is not an address as it is', () => {
    expect(visitorKey('')).toBe('');
    expect(visitorKey('not-an-address')).toBe('not-an-address');
  });
});

describe('the visitor of a request and of a socket', () => {
  it('reads the request address (as TRUST_PROXY resolved it) and the raw socket', () => {
    const raw = { socket: new Socket() };
    expect(visitorOfRequest({ ip: '2001:db8::7', raw })).toBe('2001:db8:0:0::/64');
    const circuit = 'fc00:dead:beef:4dad::1:2';
    expect(visitorOfRequest({ ip: circuit, raw: { socket: onionSocket(circuit) } })).toBe(
      `circuit:${circuit}`,
    );
  });

  it('gives a realtime connection the key named at its upgrade, or its address’s', () => {
    const socket = { readyState: 1, bufferedAmount: 0, send() {}, close() {} };
    const plain = new Connection(socket, '::ffff:198.51.100.4', '/ws');
    expect(visitorOfConnection(plain)).toBe('198.51.100.4');
    const onion = new Connection(socket, '::1', '/ws', null, 'circuit:fc00:dead:beef:4dad::0:9');
    expect(visitorOfConnection(onion)).toBe('circuit:fc00:dead:beef:4dad::0:9');
  });

  it('puts every onion visitor in one admin-password bucket and others in their own', () => {
    const one = 'fc00:dead:beef:4dad::0:1';
    const two = 'fc00:dead:beef:4dad::0:2';
    expect(passwordGuesser({ ip: one, raw: { socket: onionSocket(one) } })).toBe(
      ALL_ONION_VISITORS,
    );
    expect(passwordGuesser({ ip: two, raw: { socket: onionSocket(two) } })).toBe(
      ALL_ONION_VISITORS,
    );
    const raw = { socket: new Socket() };
    expect(passwordGuesser({ ip: '2001:db8:5:6::1', raw })).toBe(
      passwordGuesser({ ip: '2001:db8:5:6:ffff::9', raw }),
    );
    expect(passwordGuesser({ ip: '203.0.113.1', raw })).toBe('203.0.113.1');
  });
});

describe('socket caps per visitor', () => {
  const closing = () => {
    const socket = new Socket();
    return { socket, close: () => socket.emit('close', false) };
  };

  it('counts a /64 as one visitor and a circuit against its own small cap and the onion share', () => {
    expect(socketBuckets(visitorKey('2001:db8::1'), 'example.org')).toEqual([
      'ip:2001:db8:0:0::/64',
    ]);
    const circuit = 'circuit:fc00:dead:beef:4dad::0:1';
    expect(socketBuckets(circuit, 'x.onion', '::1')).toEqual([circuit, ONION_BUCKET]);
    // An onion host from loopback without the entrance: the onion share alone.
    expect(socketBuckets('127.0.0.1', 'x.onion:80', '127.0.0.1')).toEqual([ONION_BUCKET]);
  });

  it('holds a circuit to ONION_SOCKETS_PER_CIRCUIT while clearnet visitors get their full cap', () => {
    const counter = new SocketCounter({ perAddress: 50, onion: 1000 });
    const circuit = 'circuit:fc00:dead:beef:4dad::0:1';
    const held = [];
    for (let i = 0; i < ONION_SOCKETS_PER_CIRCUIT; i += 1) {
      const socket = closing();
      held.push(socket);
      expect(counter.tryAcquire([circuit, ONION_BUCKET], socket.socket)).toBe(true);
    }
    expect(counter.tryAcquire([circuit, ONION_BUCKET], closing().socket)).toBe(false);
    expect(counter.count(ONION_BUCKET)).toBe(ONION_SOCKETS_PER_CIRCUIT);
    held[0]!.close();
    expect(counter.tryAcquire([circuit, ONION_BUCKET], closing().socket)).toBe(true);
    for (let i = 0; i < 50; i += 1)
      expect(counter.tryAcquire('ip:2001:db8:0:0::/64', closing().socket)).toBe(true);
    expect(counter.tryAcquire('ip:2001:db8:0:0::/64', closing().socket)).toBe(false);
  });

  it('never gives a circuit more than a clearnet visitor', () => {
    const counter = new SocketCounter({ perAddress: 2, perCircuit: 10, onion: 100 });
    const circuit = 'circuit:fc00:dead:beef:4dad::0:3';
    expect(counter.tryAcquire([circuit, ONION_BUCKET], closing().socket)).toBe(true);
    expect(counter.tryAcquire([circuit, ONION_BUCKET], closing().socket)).toBe(true);
    expect(counter.tryAcquire([circuit, ONION_BUCKET], closing().socket)).toBe(false);
  });
});
