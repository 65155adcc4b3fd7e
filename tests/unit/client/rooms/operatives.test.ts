import { describe, expect, it } from 'vitest';
import { filterOperatives } from '../../../../client/features/rooms/operatives.js';
import { roomUser } from '../../../support/room-user.js';

const USERS = [roomUser('n1', 'Shadow7'), roomUser('n2', 'agent99'), roomUser('n3', 'Ghost12')];

describe('filterOperatives (spec 000 §2 participant list with search)', () => {
  it('puts this tab first, then sorts by callsign', () => {
    expect(filterOperatives(USERS, '', 'n3').map((u) => u.username)).toEqual([
      'Ghost12',
      'agent99',
      'Shadow7',
    ]);
  });

  it('matches the search case-insensitively after trimming', () => {
    expect(filterOperatives(USERS, '  SHAD ', null).map((u) => u.nodeId)).toEqual(['n1']);
    expect(filterOperatives(USERS, 'zzz', null)).toEqual([]);
  });

  it('leaves the input list untouched', () => {
    const before = USERS.map((u) => u.nodeId);
    filterOperatives(USERS, '', 'n3');
    expect(USERS.map((u) => u.nodeId)).toEqual(before);
  });
});
