/**
 * Room moderation (issue 23): roles, and the powers of moderators and admins over members and
 * message ids. No Fastify, no sockets: the frames hand in who acts, and what must happen to
 * sockets on every process goes out as a {@link ModerationEvent} through the service events.
 */
import { createHmac, randomUUID } from 'node:crypto';
import {
  ANONYMOUS_BAN_MAX_MINUTES,
  KICK_COOLDOWN_MS,
  MODERATION_LOG_RETENTION_DAYS,
} from '../../../shared/constants.js';
import {
  decideModeration,
  displayRole,
  type ModerationAction,
  type ModerationRole,
  type ModerationTarget,
} from '../../../shared/moderation/permissions.js';
import type { ModerationLogResponse } from '../../../shared/protocol/http/moderation.js';
import type { Message } from '../../../shared/protocol/ws/chat.js';
import { AppError } from '../../errors.js';
import type { PresenceMember, PresenceStore, RoomRow } from '../rooms/index.js';
import type { ModerationEvent } from './events.js';
import type { ModerationStore, SanctionRow } from './store.js';

/** How many address tags are kept before the kept ones are dropped and counting starts over. */
const ADDRESS_TAGS_KEPT = 4096;

/** Texts members read: errors to the actor, notices to the target, system messages to the room. */
export const MODERATION_TEXT = {
  notInRoom: 'Join a room first',
  noSuchMember: 'That member is no longer in this channel',
  noSuchMessage: 'That message is gone already',
  noSuchBan: 'That ban is no longer in force',
  notMuted: 'That member is not muted',
  noSuchModerator: 'No such moderator in this channel',
  anonymousBanTooLong: `Anonymous visitors can be banned for at most ${ANONYMOUS_BAN_MAX_MINUTES} minutes`,
  alreadyLocked: 'The channel is locked already',
  alreadyUnlocked: 'The channel is not locked',
  banned: (until: number | null) =>
    until === null
      ? 'You are banned from this channel'
      : `You are banned from this channel until ${clock(until)}`,
  kicked: (until: number) =>
    `You were removed from this channel. You may rejoin after ${clock(until)}`,
  muted: (until: number) => `You are muted in this channel until ${clock(until)}`,
} as const;

/** The room's system messages: the member's name, what happened and by which role. */
export const MODERATION_NOTICE = {
  kick: (name: string, by: string) => `${name} was kicked by ${by}`,
  mute: (name: string, minutes: number, by: string) =>
    `${name} was muted for ${minutes} minute${minutes === 1 ? '' : 's'} by ${by}`,
  unmute: (name: string, by: string) => `${name} was unmuted by ${by}`,
  delete: (by: string) => `A message was deleted by ${by}`,
  ban: (name: string, minutes: number | null, by: string) =>
    minutes === null
      ? `${name} was banned by ${by}`
      : `${name} was banned for ${minutes} minute${minutes === 1 ? '' : 's'} by ${by}`,
  unban: (name: string, by: string) => `${name} was unbanned by ${by}`,
  lock: (by: string) => `The channel was locked by ${by}: new members need the access code`,
  unlock: (by: string) => `The channel was unlocked by ${by}`,
  appoint: (name: string, by: string) => `${name} is now a moderator (appointed by ${by})`,
  dismiss: (name: string, by: string) => `${name} is no longer a moderator (by ${by})`,
} as const;

/** Sender name of moderation's system messages. */
export const MODERATION_SENDER = 'MODERATION';

/** Most log lines the log route returns. */
const LOG_LIMIT = 500;

function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 16)} UTC`;
}

/** "a moderator" or "an admin": the room reads the role, not the name, of who acted. */
export function byRole(role: ModerationRole): string {
  return role === 'moderator' ? 'a moderator' : 'an admin';
}

/** Who acts: the member behind the socket that sent the frame. */
export interface Actor {
  roomId: string;
  nodeId: string;
  username: string;
  keyId: string | null;
  level: string | null;
}

export interface ModerationServiceDeps {
  store: ModerationStore;
  presence: PresenceStore;
  now: () => number;
  getRoom: (roomId: string) => Promise<RoomRow>;
  setLocked: (roomId: string, locked: boolean) => Promise<RoomRow | null>;
  findMessage: (roomId: string, messageId: string) => Promise<Message | null>;
  deleteMessage: (roomId: string, messageId: string) => Promise<boolean>;
  postSystemMessage: (roomId: string, text: string) => Promise<unknown>;
  /** Tells every process (this one included) to act on its sockets. */
  publish: (event: ModerationEvent) => Promise<void>;
  /** Service admins' actions also go to the admin audit log. */
  audit: (actor: string, detail: Record<string, unknown>) => Promise<void>;
  /**
   * Ends the room's grants held by anyone but the sockets in it now (kick, ban, lock): a removed
   * member's grant, and those bought with the code over HTTP, open nothing afterwards. The
   * sockets in `removed` lose theirs too, even while still listed in the room.
   */
  revokeAbsentGrants?: (roomId: string, removed?: readonly string[]) => Promise<unknown>;
}

export class ModerationService {
  constructor(private readonly deps: ModerationServiceDeps) {}

  /** A member's role in a room: anonymous visitors are members; roles belong to key holders. */
  async roleIn(
    room: Pick<RoomRow, 'id' | 'creatorKeyId'>,
    identity: { keyId: string; level: string } | null,
  ): Promise<ModerationRole> {
    if (!identity) return 'member';
    if (identity.level === 'admin') return 'service_admin';
    if (room.creatorKeyId === identity.keyId) return 'room_admin';
    return (await this.deps.store.isModerator(room.id, identity.keyId)) ? 'moderator' : 'member';
  }

  /**
   * The keyed hash that names an anonymous visitor in sanctions (never the address): of their
   * visitor key (server/lib/visitor.ts), so a ban holds for the whole IPv6 /64.
   */
  async addressTag(address: string): Promise<string> {
    const key = await this.deps.store.addressKey();
    // Every anonymous join asks (an HMAC is about 15 µs); the recent answers are kept.
    if (this.tags.key !== key || this.tags.byAddress.size >= ADDRESS_TAGS_KEPT) {
      this.tags = { key, byAddress: new Map() };
    }
    let tag = this.tags.byAddress.get(address);
    if (tag === undefined) {
      tag = createHmac('sha256', key).update(address).digest('hex').slice(0, 32);
      this.tags.byAddress.set(address, tag);
    }
    return tag;
  }

  /** Address tags computed with `key`, until there are ADDRESS_TAGS_KEPT of them. */
  private tags: { key: Buffer | null; byAddress: Map<string, string> } = {
    key: null,
    byAddress: new Map(),
  };

  /**
   * Whether a member may enter: refuses a banned key or address and one in a kick cool-down;
   * otherwise their role and any mute still running.
   */
  async admit(
    room: RoomRow,
    identity: { keyId: string; level: string } | null,
    address: string,
  ): Promise<{ role: ModerationRole; addressTag: string | null; mutedUntil: number | null }> {
    const role = await this.roleIn(room, identity);
    const addressTag = identity ? null : await this.addressTag(address);
    const subject = identity ? `key:${identity.keyId}` : `addr:${addressTag}`;
    // A service admin cannot be banned from a room: nothing can stand in their way.
    if (role === 'service_admin') return { role, addressTag, mutedUntil: null };
    const now = this.deps.now();
    const active = await this.deps.store.activeSanctions(room.id, [subject], new Date(now));
    const ban = active.find((row) => row.kind === 'ban');
    if (ban) {
      const until = ban.until?.getTime() ?? null;
      throw new AppError('BANNED', 403, MODERATION_TEXT.banned(until));
    }
    const kick = active.find((row) => row.kind === 'kick');
    if (kick?.until)
      throw new AppError('KICKED', 403, MODERATION_TEXT.kicked(kick.until.getTime()));
    const mutes = active.filter((row) => row.kind === 'mute' && row.until);
    const mutedUntil = mutes.length
      ? Math.max(...mutes.map((row) => row.until?.getTime() ?? 0))
      : null;
    return { role, addressTag, mutedUntil };
  }

  /**
   * When the mute of the member behind socket `nodeId` in the room ends (ms), or null when it is
   * not muted: asked by the HTTP routes a member speaks through (image upload, voice servers),
   * which may run on another process than the member's socket.
   */
  async mutedUntil(roomId: string, nodeId: string): Promise<number | null> {
    const member = (await this.deps.presence.list(roomId)).find((entry) => entry.nodeId === nodeId);
    if (!member || member.moderationRole === 'service_admin') return null;
    const subject = member.keyId
      ? `key:${member.keyId}`
      : member.addressTag
        ? `addr:${member.addressTag}`
        : null;
    if (subject === null) return null;
    const now = this.deps.now();
    const ends = (await this.deps.store.activeSanctions(roomId, [subject], new Date(now)))
      .filter((row) => row.kind === 'mute' && row.until !== null && row.until.getTime() > now)
      .map((row) => row.until?.getTime() ?? 0);
    return ends.length ? Math.max(...ends) : null;
  }

  /** May the caller of the timer route set or clear this room's timer? */
  async mayManageTimer(
    room: RoomRow,
    caller: { kind: 'key'; keyId: string; level: string } | { kind: 'admin-session' } | null,
  ): Promise<boolean> {
    if (!caller) return false;
    const role =
      caller.kind === 'admin-session' ? 'service_admin' : await this.roleIn(room, caller);
    return decideModeration(role, 'set_timer').allowed;
  }

  async kick(actor: Actor, nodeId: string): Promise<void> {
    const context = await this.targeted(actor, nodeId, 'kick');
    const until = this.deps.now() + KICK_COOLDOWN_MS;
    await this.sanction(context, 'kick', until);
    await this.deps.publish({
      op: 'remove',
      roomId: actor.roomId,
      ...this.match(context.target),
      action: 'kick',
      until,
      message: MODERATION_TEXT.kicked(until),
    });
    await this.endGrants(actor.roomId, this.match(context.target));
    await this.announce(
      context,
      'kick',
      MODERATION_NOTICE.kick(context.target.username, byRole(context.role)),
      {
        until: new Date(until).toISOString(),
      },
    );
  }

  async mute(actor: Actor, nodeId: string, minutes: number): Promise<void> {
    const context = await this.targeted(actor, nodeId, 'mute');
    const until = this.deps.now() + minutes * 60_000;
    await this.sanction(context, 'mute', until);
    await this.deps.publish({
      op: 'mute',
      roomId: actor.roomId,
      ...this.match(context.target),
      until,
    });
    await this.announce(
      context,
      'mute',
      MODERATION_NOTICE.mute(context.target.username, minutes, byRole(context.role)),
      { minutes },
    );
  }

  async unmute(actor: Actor, nodeId: string): Promise<void> {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    const target = await this.member(actor.roomId, nodeId);
    const subject = subjectOf(target);
    const mutes = (
      await this.deps.store.activeSanctions(room.id, [subject], new Date(this.deps.now()))
    ).filter((row) => row.kind === 'mute');
    const own = mutes.length > 0 && mutes.every((row) => row.createdBy === actorLabel(actor));
    this.require(role, 'unmute', { ...targetOf(target), isOwnSanction: own });
    if (mutes.length === 0) throw new AppError('NOT_MUTED', 400, MODERATION_TEXT.notMuted);
    await this.deps.store.removeSanctions(room.id, subject, 'mute');
    await this.deps.publish({ op: 'unmute', roomId: room.id, ...this.match(target) });
    await this.announce(
      { actor, role, target, room },
      'unmute',
      MODERATION_NOTICE.unmute(target.username, byRole(role)),
    );
  }

  async deleteMessage(actor: Actor, messageId: string): Promise<void> {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    const message = await this.deps.findMessage(room.id, messageId);
    // A sender who has left cannot be ranked: their message is treated as a moderator's, so only
    // admins delete it (a moderator never removes an admin's words).
    const sender = (await this.deps.presence.list(room.id)).find(
      (member) => member.nodeId === message?.senderId,
    );
    const senderTarget: ModerationTarget = sender
      ? targetOf(sender)
      : { role: 'moderator', isKeyHolder: true };
    this.require(role, 'delete_message', senderTarget);
    if (!message || !(await this.deps.deleteMessage(room.id, messageId)))
      throw new AppError('NO_MESSAGE', 404, MODERATION_TEXT.noSuchMessage);
    await this.log(
      actor,
      role,
      room.id,
      'delete_message',
      sender?.username ?? message.senderUsername,
      {
        messageId,
      },
    );
    await this.deps.postSystemMessage(room.id, MODERATION_NOTICE.delete(byRole(role)));
  }

  async ban(actor: Actor, nodeId: string, minutes: number | null): Promise<void> {
    const context = await this.targeted(actor, nodeId, minutes === null ? 'ban_permanent' : 'ban');
    if (!context.target.keyId && minutes !== null && minutes > ANONYMOUS_BAN_MAX_MINUTES)
      throw new AppError('BAN_TOO_LONG', 400, MODERATION_TEXT.anonymousBanTooLong);
    const until = minutes === null ? null : this.deps.now() + minutes * 60_000;
    await this.sanction(context, 'ban', until);
    await this.deps.publish({
      op: 'remove',
      roomId: actor.roomId,
      ...this.match(context.target, true),
      action: 'ban',
      until,
      message: MODERATION_TEXT.banned(until),
    });
    await this.endGrants(actor.roomId, this.match(context.target, true));
    await this.announce(
      context,
      minutes === null ? 'ban_permanent' : 'ban',
      MODERATION_NOTICE.ban(context.target.username, minutes, byRole(context.role)),
      { minutes, until: until === null ? null : new Date(until).toISOString() },
    );
  }

  async unban(actor: Actor, banId: string): Promise<void> {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    this.require(role, 'unban');
    const removed = await this.deps.store.removeSanctionById(room.id, banId, 'ban');
    if (!removed) throw new AppError('NO_BAN', 404, MODERATION_TEXT.noSuchBan);
    await this.log(actor, role, room.id, 'unban', removed.subjectName, {});
    await this.deps.postSystemMessage(
      room.id,
      MODERATION_NOTICE.unban(removed.subjectName, byRole(role)),
    );
  }

  async setLock(actor: Actor, locked: boolean): Promise<void> {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    this.require(role, locked ? 'lock' : 'unlock');
    if (room.isLocked === locked)
      throw new AppError(
        'LOCK_UNCHANGED',
        400,
        locked ? MODERATION_TEXT.alreadyLocked : MODERATION_TEXT.alreadyUnlocked,
      );
    await this.deps.setLocked(room.id, locked);
    await this.deps.publish({ op: 'lock', roomId: room.id, isLocked: locked });
    // Locked: only the members inside keep a grant; anyone else needs the code (or a key).
    if (locked) await this.deps.revokeAbsentGrants?.(room.id);
    await this.log(actor, role, room.id, locked ? 'lock' : 'unlock', null, {});
    await this.deps.postSystemMessage(
      room.id,
      locked ? MODERATION_NOTICE.lock(byRole(role)) : MODERATION_NOTICE.unlock(byRole(role)),
    );
  }

  async appoint(actor: Actor, nodeId: string): Promise<void> {
    const context = await this.targeted(actor, nodeId, 'appoint_moderator');
    const keyId = context.target.keyId;
    if (!keyId) throw new AppError('FORBIDDEN', 403, 'Anonymous callsigns cannot hold a role');
    await this.deps.store.appoint({
      roomId: actor.roomId,
      keyId,
      appointedBy: actor.username,
      at: new Date(this.deps.now()),
    });
    await this.deps.publish({ op: 'role', roomId: actor.roomId, keyId, role: 'moderator' });
    await this.announce(
      context,
      'appoint_moderator',
      MODERATION_NOTICE.appoint(context.target.username, byRole(context.role)),
    );
  }

  async dismiss(actor: Actor, which: { nodeId?: string; keyId?: string }): Promise<void> {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    let keyId: string;
    let name: string;
    if (which.nodeId) {
      const target = await this.member(room.id, which.nodeId);
      this.require(role, 'remove_moderator', targetOf(target));
      if (!target.keyId) throw new AppError('NO_MODERATOR', 404, MODERATION_TEXT.noSuchModerator);
      keyId = target.keyId;
      name = target.username;
    } else {
      const moderator = (await this.deps.store.moderators(room.id)).find(
        (row) => row.keyId === which.keyId,
      );
      this.require(role, 'remove_moderator', {
        role: moderator ? 'moderator' : 'member',
        isKeyHolder: true,
      });
      if (!moderator) throw new AppError('NO_MODERATOR', 404, MODERATION_TEXT.noSuchModerator);
      keyId = moderator.keyId;
      name = moderator.username;
    }
    if (!(await this.deps.store.dismiss(room.id, keyId)))
      throw new AppError('NO_MODERATOR', 404, MODERATION_TEXT.noSuchModerator);
    await this.deps.publish({ op: 'role', roomId: room.id, keyId, role: 'member' });
    await this.log(actor, role, room.id, 'remove_moderator', name, {});
    await this.deps.postSystemMessage(room.id, MODERATION_NOTICE.dismiss(name, byRole(role)));
  }

  /** The room's log for its admins: last 30 days, its moderators and the bans in force. */
  async logFor(
    room: RoomRow,
    viewer: { kind: 'key'; keyId: string; level: string } | { kind: 'admin-session' } | null,
  ): Promise<ModerationLogResponse> {
    const role = !viewer
      ? 'member'
      : viewer.kind === 'admin-session'
        ? 'service_admin'
        : await this.roleIn(room, viewer);
    this.require(role, 'view_log');
    const now = this.deps.now();
    const since = new Date(now - MODERATION_LOG_RETENTION_DAYS * 86_400_000);
    const [entries, moderators, bans] = await Promise.all([
      this.deps.store.logEntries(room.id, since, LOG_LIMIT),
      this.deps.store.moderators(room.id),
      this.deps.store.bans(room.id, new Date(now)),
    ]);
    return {
      roomId: room.id,
      isLocked: room.isLocked,
      entries: entries.map((row) => ({
        id: row.id,
        at: row.at.toISOString(),
        actor: row.actor,
        actorRole: row.actorRole,
        action: row.action,
        target: row.target,
        detail: isRecord(row.detail) ? row.detail : {},
      })),
      moderators: moderators.map((row) => ({
        keyId: row.keyId,
        username: row.username,
        appointedBy: row.appointedBy,
        since: row.createdAt.toISOString(),
      })),
      bans: bans.map((row) => ({
        id: row.id,
        name: row.subjectName,
        isKeyHolder: row.subject.startsWith('key:'),
        until: row.until ? row.until.toISOString() : null,
        by: row.createdBy.startsWith('key:') ? 'key holder' : row.createdBy,
      })),
    };
  }

  /** Deletes ended sanctions and log lines past the retention (housekeeping). */
  sweep(): Promise<{ sanctions: number; logEntries: number }> {
    const now = this.deps.now();
    return this.deps.store.sweep(
      new Date(now),
      new Date(now - MODERATION_LOG_RETENTION_DAYS * 86_400_000),
    );
  }

  private async targeted(actor: Actor, nodeId: string, action: ModerationAction) {
    const room = await this.deps.getRoom(actor.roomId);
    const role = await this.roleIn(room, actorIdentity(actor));
    const target = await this.member(room.id, nodeId);
    this.require(role, action, targetOf(target));
    return { actor, role, target, room };
  }

  private async member(roomId: string, nodeId: string): Promise<PresenceMember> {
    const member = (await this.deps.presence.list(roomId)).find((entry) => entry.nodeId === nodeId);
    if (!member) throw new AppError('NO_MEMBER', 404, MODERATION_TEXT.noSuchMember);
    return member;
  }

  private require(role: ModerationRole, action: ModerationAction, target?: ModerationTarget): void {
    const decision = decideModeration(role, action, target ?? null);
    if (!decision.allowed) throw new AppError('FORBIDDEN', 403, decision.reason);
  }

  private async sanction(
    context: { actor: Actor; target: PresenceMember; room: RoomRow },
    kind: SanctionRow['kind'],
    until: number | null,
  ): Promise<void> {
    await this.deps.store.addSanction({
      id: randomUUID(),
      roomId: context.room.id,
      kind,
      subject: subjectOf(context.target),
      subjectName: context.target.username,
      until: until === null ? null : new Date(until),
      createdBy: actorLabel(context.actor),
      createdAt: new Date(this.deps.now()),
    });
  }

  /**
   * Which sockets an event reaches: every socket of a key in the room, or the one connection of an
   * anonymous member. A ban (`wholeVisitor`) reaches every anonymous socket of the banned visitor
   * (address, IPv6 /64, onion circuit) in the room, as the ban stored against them refuses their
   * next joins: a tab opened before the ban must not outlive it. Kicks and mutes act on the socket
   * named, since anonymous members behind one address (a household, an office NAT) are often
   * different people; their stored cool-down or mute still applies to the visitor's next joins.
   */
  private match(
    target: PresenceMember,
    wholeVisitor = false,
  ): { subject: string | null; nodeId: string | null } {
    if (target.keyId) return { subject: `key:${target.keyId}`, nodeId: null };
    if (wholeVisitor && target.addressTag)
      return { subject: `addr:${target.addressTag}`, nodeId: null };
    return { subject: null, nodeId: target.nodeId };
  }

  /**
   * Ends the grants of the removed member's sockets (those `removal` names) and of everyone not
   * in the room: here, at once, whichever process holds the sockets.
   */
  private async endGrants(
    roomId: string,
    removal: { subject: string | null; nodeId: string | null },
  ): Promise<void> {
    if (!this.deps.revokeAbsentGrants) return;
    const removed = (await this.deps.presence.list(roomId))
      .filter((member) =>
        removal.nodeId !== null
          ? member.nodeId === removal.nodeId
          : removal.subject !== null && sanctionSubject(member) === removal.subject,
      )
      .map((member) => member.nodeId);
    await this.deps.revokeAbsentGrants(roomId, removed);
  }

  private async announce(
    context: { actor: Actor; role: ModerationRole; target: PresenceMember; room: RoomRow },
    action: ModerationAction,
    notice: string,
    detail: Record<string, unknown> = {},
  ): Promise<void> {
    await this.log(
      context.actor,
      context.role,
      context.room.id,
      action,
      context.target.username,
      detail,
    );
    await this.deps.postSystemMessage(context.room.id, notice);
  }

  private async log(
    actor: Actor,
    role: ModerationRole,
    roomId: string,
    action: string,
    target: string | null,
    detail: Record<string, unknown>,
  ): Promise<void> {
    await this.deps.store.log({
      roomId,
      at: new Date(this.deps.now()),
      actor: actor.username,
      actorRole: displayRole(role),
      action,
      target,
      detail,
    });
    if (role === 'service_admin' && actor.keyId) {
      await this.deps.audit(`key:${actor.keyId}`, { roomId, action, target, ...detail });
    }
  }
}

function actorIdentity(actor: Actor): { keyId: string; level: string } | null {
  return actor.keyId && actor.level ? { keyId: actor.keyId, level: actor.level } : null;
}

function actorLabel(actor: Actor): string {
  return actor.keyId ? `key:${actor.keyId}` : actor.username;
}

/** What a sanction against the member names: their key, or the visitor behind an anonymous one. */
function sanctionSubject(member: PresenceMember): string | null {
  if (member.keyId) return `key:${member.keyId}`;
  return member.addressTag ? `addr:${member.addressTag}` : null;
}

function subjectOf(member: PresenceMember): string {
  const subject = sanctionSubject(member);
  if (subject === null) throw new AppError('NO_MEMBER', 404, MODERATION_TEXT.noSuchMember);
  return subject;
}

function targetOf(member: PresenceMember): ModerationTarget {
  return {
    role:
      member.moderationRole ??
      (member.role === 'admin'
        ? 'room_admin'
        : member.role === 'moderator'
          ? 'moderator'
          : 'member'),
    isKeyHolder: Boolean(member.keyId),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
