/**
 * The composition root: builds every feature, wires them to each other through their index.ts,
 * registers their routes in a fixed order and starts the housekeeping timers. app.ts owns the
 * cross-cutting plugins; this file owns what the product does.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from './config.js';
import type { Database } from './db/connect.js';
import {
  createAdminFeature,
  createAdminOperations,
  EMERGENCY_CLOSE_CODE,
  FRAMES_ALLOWED_DURING_SHUTDOWN,
  isBlockedDuringShutdown,
  SERVICE_TEXT,
  writeAdminPasswordFile,
} from './features/admin/index.js';
import {
  actorName,
  createAuthFeature,
  KEY_LOGIN_FAILURE_WINDOW_MS,
  createAuthStore,
  registerPublicKey,
  hasPermission,
  type LoginAdmission,
  type SignatureVerifier,
} from './features/auth/index.js';
import { createAbuseFeature } from './features/abuse/index.js';
import { createImagesFeature } from './features/images/index.js';
import { createDmFeature } from './features/dm/index.js';
import { createMessagesFeature, EXPIRY_NOTICE_INTERVAL_MS } from './features/messages/index.js';
import { createPrivacyFeature, type PrivacyLookup } from './features/privacy/index.js';
import { createPongFeature } from './features/pong/index.js';
import { createPaymentsFeature, PAYMENT_SWEEP_INTERVAL_MS } from './features/payments/index.js';
import {
  createModerationFeature,
  MODERATION_SENDER,
  MODERATION_TEXT,
  type ModerationCaller,
} from './features/moderation/index.js';
import { createSecurityFeature } from './features/security/index.js';
import {
  ACCESS_ATTEMPTS,
  ANONYMOUS_ROOM_CREATIONS,
  createRoomsFeature,
  toRoomUser,
} from './features/rooms/index.js';
import { systemRoutes } from './features/system/index.js';
import { createTorFeature } from './features/tor/index.js';
import { createVoiceFeature } from './features/voice/index.js';
import type { Hub } from './realtime/hub.js';
import type { RoomChannels } from './realtime/room-channels.js';
import type { UserChannels } from './realtime/user-channels.js';
import { ServiceEvents } from './realtime/service-events.js';
import { AppError } from './errors.js';
import { errorForLog } from './lib/log-error.js';
import { isDependencyUnavailable } from './lib/unavailable.js';
import { HEARTBEAT_INTERVAL_MS, type SharedState } from './shared-state.js';
import { RELAY_INTERRUPTED_CLOSE } from './redis/redis-health.js';

export interface ComposeDeps {
  app: FastifyInstance;
  config: Config;
  database: Database;
  hub: Hub;
  channels: RoomChannels;
  users: UserChannels;
  shared: SharedState;
  verifier: SignatureVerifier;
  loginAdmission: LoginAdmission;
  now: () => number;
  /** Prints to the operator's terminal; called only when `isInteractive`. */
  announce: (message: string) => void;
  /** stdout is a terminal: the only place a generated admin password may be printed. */
  isInteractive: boolean;
  loginRatePerMinute: number;
  keyLoginFailuresPerWindow: number;
  roomCreationsPerTenMinutes: number;
  /** Replaces the configured IP-information lookup (tests); null for none. */
  privacyLookup?: PrivacyLookup | null;
  /** How often every bridge is tested while tor runs; default 30 s (spec 000 §9). */
  bridgeTestIntervalMs?: number;
  /** How often the onion service tests itself while connected; default 30 s. */
  torSelfTestIntervalMs?: number;
  anonymousRoomCreationsPerTenMinutes?: number;
  paymentCreationsPerTenMinutes: number;
  /** How long an upload may take to arrive before it is cut (default UPLOAD_HOLD_MS). */
  uploadHoldMs?: number;
}

/** How long a shutdown waits for the other processes' counts of the sockets they closed. */
const SHUTDOWN_COUNT_WINDOW_MS = 500;

/** How often ended sanctions and old moderation log lines are deleted. */
const MODERATION_SWEEP_INTERVAL_MS = 10 * 60_000;

export async function composeFeatures(deps: ComposeDeps) {
  const { app, hub, now, database } = deps;

  const { shared } = deps;
  const events = new ServiceEvents(shared.fanout);
  const admin = await createAdminFeature({
    db: database.db,
    now,
    // Never into the log: only the file's path is logged, the password printed to a terminal.
    onGeneratedPassword: async (password) => {
      const file = await writeAdminPasswordFile(deps.config.dataDir, password);
      app.log.warn(
        { file },
        'admin password generated and written to a file only this user can read; set ADMIN_PASSWORD to choose your own',
      );
      if (deps.isInteractive) {
        deps.announce(
          `\n  SecureChannel admin password (also in ${file}): ${password}\n` +
            '  Set ADMIN_PASSWORD to choose your own.\n\n',
        );
      }
    },
    lockoutStore: shared.lockouts,
  });
  await admin.credentials.initialize(deps.config.adminPassword);

  const auth = createAuthFeature({
    db: database.db,
    isOnlyProcess: shared.kind === 'memory',
    challenges: shared.challenges,
    verifier: deps.verifier,
    keyFailures: shared.attempts(
      'login-key-failures',
      deps.keyLoginFailuresPerWindow,
      KEY_LOGIN_FAILURE_WINDOW_MS,
    ),
    now,
    isAdminSession: (token) => admin.credentials.isAdminSession(token),
    // Every process (this one included) forgets the key and closes its sockets on the event. The
    // key's room grants end here and now, wherever its sockets are: a process cut off from Redis
    // hears the event only later.
    onRevoked: async (keyId) => {
      const rooms = roomsFeature();
      for (const member of await rooms.presence.all()) {
        if (member.keyId === keyId) await rooms.service.revokeGrant(member.roomId, member.nodeId);
      }
      await events.publish({ kind: 'revoked', keyId });
    },
    loginRatePerMinute: deps.loginRatePerMinute,
    loginLimiter: shared.limiter('login', deps.loginRatePerMinute, 60_000),
    hub,
    logger: app.log,
    admission: deps.loginAdmission,
    onAdminAction: (actor, action, detail) => admin.audit.record({ actor, action, detail }),
  });

  // Images need room membership, messages need images: the room lookup is bound late.
  let roomsRef: ReturnType<typeof createRoomsFeature> | null = null;
  const roomsFeature = () => {
    if (!roomsRef) throw new Error('rooms feature not ready');
    return roomsRef;
  };
  // A room session (uploads, ICE servers): a socket's grant, while that socket is in its room.
  const roomSessionOf = async (token: string) => {
    const grant = await roomsFeature().service.findGrant(token);
    if (!grant?.holder.startsWith('node_')) return null;
    const members = await roomsFeature().presence.list(grant.roomId);
    return members.some((member) => member.nodeId === grant.holder)
      ? { roomId: grant.roomId, nodeId: grant.holder }
      : null;
  };
  /**
   * The room session behind a grant for what a member sends to the room over HTTP (an image
   * upload, the voice servers): refused while the member is muted, on whichever process asks.
   */
  const speakerSessionOf = async (token: string) => {
    const session = await roomSessionOf(token);
    if (!session) return null;
    const mutedUntil = await moderationFeature().service.mutedUntil(session.roomId, session.nodeId);
    if (mutedUntil !== null) throw new AppError('MUTED', 403, MODERATION_TEXT.muted(mutedUntil));
    return session;
  };
  const images = createImagesFeature({
    now,
    store: shared.images,
    quota: shared.uploadQuota,
    ...(deps.uploadHoldMs !== undefined ? { uploadHoldMs: deps.uploadHoldMs } : {}),
    roomIdOf: async (idOrSecureId) => (await roomsFeature().service.getRow(idOrSecureId)).id,
    roomSessionOf: speakerSessionOf,
    isMember: async (request, roomId) => {
      const header = request.headers['x-room-access'];
      const row = await roomsFeature().service.getRow(roomId);
      return roomsFeature().service.isMember(row, {
        isKeyHolder: (await auth.guards.resolve(request))?.kind === 'key',
        accessToken: typeof header === 'string' ? header : null,
      });
    },
  });
  const messages = createMessagesFeature({
    hub,
    channels: deps.channels,
    ttlSeconds: deps.config.messageTtlSeconds,
    now,
    store: shared.messages,
    bindImage: images.bindImage,
    logger: app.log,
  });

  /** A socket's identity from a key session token, or null. */
  const identityOf = async (token: string) => {
    const principal = await auth.service.authenticate(token);
    if (!principal) return null;
    return {
      keyId: principal.keyId,
      username: principal.username,
      level: principal.permissions.level,
      capabilities: principal.permissions.capabilities,
    };
  };

  // Abuse control sees frames before the room and message handlers do.
  createAbuseFeature({
    hub,
    bans: shared.bans,
    now,
    postSystemMessage: (roomId, content, sender) =>
      messages.service.sendSystem(roomId, content, sender),
  });

  // Moderation needs the rooms feature (presence, leave) and rooms asks moderation about joins
  // and timers: moderation is bound late, like the room lookup above.
  let moderationRef: ReturnType<typeof createModerationFeature> | null = null;
  const moderationFeature = () => {
    if (!moderationRef) throw new Error('moderation feature not ready');
    return moderationRef;
  };
  const callerOf = async (request: FastifyRequest): Promise<ModerationCaller> => {
    const principal = await auth.guards.resolve(request);
    if (!principal) return null;
    if (principal.kind === 'admin-session') return { kind: 'admin-session' };
    return { kind: 'key', keyId: principal.keyId, level: principal.permissions.level };
  };

  // Voice calls belong to rooms: a socket that leaves its room leaves its call (rooms' hooks).
  const voice = createVoiceFeature({
    hub,
    publish: (roomId, frame, options) => deps.channels.publish(roomId, frame, options),
    setVoiceActive: async (roomId, nodeId, isVoiceActive) => {
      if (await shared.presence.setVoiceActive(roomId, nodeId, isVoiceActive))
        await roomsFeature().publishUserList(roomId);
    },
    roomMembers: async (roomId) =>
      new Set((await shared.presence.list(roomId)).map((member) => member.nodeId)),
    callSignals: shared.limiter('voice-call-signals', deps.config.voice.callSignalsPerSecond, 1000),
    roomSessionOf: speakerSessionOf,
    config: deps.config.voice,
    now,
    store: shared.voiceCalls,
  });

  const rooms = createRoomsFeature({
    db: database.db,
    isOnlyProcess: shared.kind === 'memory',
    hub,
    channels: deps.channels,
    now,
    authenticate: identityOf,
    isKeyHolder: async (request) => (await auth.guards.resolve(request))?.kind === 'key',
    history: (roomId) => messages.service.history(roomId),
    purgeMessages: async (roomId) => {
      await messages.service.purgeRoom(roomId);
      await images.store.purgeRoom(roomId);
    },
    roomCreationsPerTenMinutes: deps.roomCreationsPerTenMinutes,
    presence: shared.presence,
    grants: shared.grants,
    bundles: shared.bundles,
    attemptLimiter: shared.limiter('room-access', ACCESS_ATTEMPTS, 15 * 60_000),
    anonymousCreationLimiter: shared.limiter(
      'room-create-anonymous',
      deps.anonymousRoomCreationsPerTenMinutes ?? ANONYMOUS_ROOM_CREATIONS,
      10 * 60_000,
    ),
    admit: (connection, room, identity) => moderationFeature().admit(connection, room, identity),
    joined: (connection, room, admission) => {
      moderationFeature().joined(connection, room, admission);
      void voice.joined(connection, room.id).catch(logFailure('voice'));
    },
    // A failing call store must not keep the socket in the room: the leave goes on, logged.
    left: (connection, roomId) => voice.left(connection, roomId).catch(logFailure('voice')),
    endCalls: (roomId) => voice.service.endRoom(roomId),
    keyOf: async (request) => {
      const caller = await callerOf(request);
      return caller?.kind === 'key' ? caller : null;
    },
    mayManageTimer: async (room, request) =>
      moderationFeature().service.mayManageTimer(room, await callerOf(request)),
  });
  roomsRef = rooms;
  const moderation = createModerationFeature({
    db: database.db,
    isOnlyProcess: shared.kind === 'memory',
    hub,
    channels: deps.channels,
    presence: rooms.presence,
    now,
    getRoom: (idOrSecureId) => rooms.service.getRow(idOrSecureId),
    setLocked: (roomId, locked) => rooms.service.setLocked(roomId, locked),
    invalidateRoom: (roomId) => rooms.service.invalidate(roomId),
    leave: rooms.leave,
    findMessage: (roomId, messageId) => messages.service.find(roomId, messageId),
    deleteMessage: (roomId, messageId) => messages.service.deleteForEveryone(roomId, messageId),
    postSystemMessage: (roomId, text) =>
      messages.service.sendSystem(roomId, text, MODERATION_SENDER),
    publish: (event) => events.publish({ kind: 'moderation', event }),
    audit: (actor, detail) => admin.audit.record({ actor, action: 'room.moderation', detail }),
    callerOf,
    revokeAbsentGrants: (roomId, removed) => rooms.service.revokeAbsentGrants(roomId, removed),
    silenced: (connection, roomId) => voice.left(connection, roomId),
  });
  moderationRef = moderation;
  await rooms.service.ensureDefaultRoom();
  const security = createSecurityFeature({ now });
  const privacy = await createPrivacyFeature({
    config: deps.config,
    db: database.db,
    now,
    ...(deps.privacyLookup !== undefined ? { lookup: deps.privacyLookup } : {}),
    onExitListFailure: (reason) => app.log.warn({ reason }, 'tor exit list fetch failed'),
  });
  const dm = createDmFeature({
    db: database.db,
    hub,
    users: deps.users,
    now,
    requireKey: auth.guards.requireKey,
    authenticate: identityOf,
  });

  const pong = createPongFeature({
    hub,
    fanout: shared.fanout,
    directory: shared.pongGames,
    processId: shared.processId,
    logger: app.log,
    now,
    timeScale: deps.config.pongTimeScale,
  });
  // Before the sockets close and the fan-out goes: members on other processes hear the end.
  app.addHook('preClose', async () => {
    await pong.close();
  });

  // Key purchase: a purchased key is registered exactly as an admin-issued one, and audited.
  const payments = createPaymentsFeature({
    db: database.db,
    config: deps.config,
    now,
    perAddress: shared.limiter('payment-create', deps.paymentCreationsPerTenMinutes, 10 * 60_000),
    global: shared.limiter(
      'payment-create-all',
      50 * deps.paymentCreationsPerTenMinutes,
      10 * 60_000,
    ),
    registerKey: async (db, key) => {
      await registerPublicKey(createAuthStore(db), key);
    },
    onKeyIssued: (record) =>
      admin.audit.record({ actor: 'purchase', action: 'key.purchase', detail: { ...record } }),
    log: (event, detail) => app.log.info(detail, event),
  });

  // One line at start-up says which payment mode is in force: sandbox, nowpayments or disabled.
  const paymentMode = payments.modeNotice;
  app.log[paymentMode.level]({ paymentMode: paymentMode.paymentMode }, paymentMode.message);

  /** The admin behind a token: an admin console session, or a key holder with admin permission. */
  const actorForToken = async (token: string): Promise<string | null> => {
    if (await admin.credentials.isAdminSession(token)) return 'admin-session';
    const key = await auth.service.authenticate(token);
    return key && hasPermission(key, 'admin') ? actorName(key) : null;
  };
  // Shutdown counts from the other processes (Redis): each answers with the sockets it closed;
  // the answering process adds what arrives within SHUTDOWN_COUNT_WINDOW_MS.
  const closedCounts = new Map<string, number>();
  const countRemoteClosed = async (timestamp: string): Promise<number> => {
    if (shared.kind === 'memory') return 0;
    closedCounts.set(timestamp, 0);
    await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_COUNT_WINDOW_MS));
    const total = closedCounts.get(timestamp) ?? 0;
    closedCounts.delete(timestamp);
    return total;
  };
  const adminOps = createAdminOperations({
    hub,
    events: {
      publish: (event) =>
        events.publish(event.kind === 'shutdown' ? { ...event, origin: shared.processId } : event),
    },
    countRemoteClosed,
    credentials: admin.credentials,
    audit: admin.audit,
    state: admin.state,
    presence: rooms.presence,
    now,
    requireAdmin: auth.guards.requireAdmin,
    actorForToken,
    bearerActor: async (request) => {
      const principal = await auth.guards.resolve(request);
      return principal && hasPermission(principal, 'admin') ? actorName(principal) : null;
    },
  });

  /** Tells this process's sockets of an emergency shutdown and closes them; how many. */
  const closeForShutdown = (reason: string | null, timestamp: string): number => {
    hub.broadcastAll({ type: 'emergency_shutdown_notice', reason, timestamp });
    return hub.closeWhere(() => true, EMERGENCY_CLOSE_CODE, 'Emergency shutdown');
  };

  // Every process acts on service events for its own sockets, the origin included.
  await events.listen((event) => {
    switch (event.kind) {
      case 'shutdown': {
        admin.state.apply({ status: 'emergency', reason: event.reason, since: event.timestamp });
        // The origin told and closed its own sockets already, and counted them.
        if (event.origin === shared.processId) break;
        const count = closeForShutdown(event.reason, event.timestamp);
        if (event.origin) {
          void events
            .publish({ kind: 'closed', origin: event.origin, timestamp: event.timestamp, count })
            .catch(logFailure('shutdown count'));
        }
        break;
      }
      case 'closed':
        if (event.origin === shared.processId && closedCounts.has(event.timestamp)) {
          closedCounts.set(event.timestamp, (closedCounts.get(event.timestamp) ?? 0) + event.count);
        }
        break;
      case 'restore':
        admin.state.apply({ status: 'operational', reason: null, since: null });
        hub.broadcastAll({ type: 'service_restored', message: event.message });
        break;
      case 'broadcast':
        hub.broadcastAll(event.frame);
        break;
      case 'revoked': {
        void auth.service.forgetKey(event.keyId).catch(logFailure('revocation'));
        // Every socket that ever proved the key (rooms, direct messages, Pong) closes, and leaves
        // its room now rather than when the client answers the close: grant, voice and presence
        // end at once.
        const revoked = [...hub.connections].filter((c) => c.hasProved(event.keyId));
        hub.closeWhere((connection) => revoked.includes(connection), 4003, 'Key revoked');
        for (const connection of revoked)
          void rooms.leave(connection).catch(logFailure('revocation'));
        break;
      }
      case 'moderation':
        void moderation.apply(event.event).catch(logFailure('moderation'));
        break;
    }
  });

  // While the service is shut down: every API but ping and admin answers 503, new sockets hear
  // maintenance_mode and stay open for service_restored, and only restore_service is handled.
  app.addHook('onRequest', async (request, reply) => {
    if (admin.state.isShutDown && isBlockedDuringShutdown(request.url)) {
      return reply.code(503).send({ error: SERVICE_TEXT.unavailable });
    }
  });
  hub.onConnect((connection) => {
    if (admin.state.isShutDown)
      connection.send({ type: 'maintenance_mode', message: SERVICE_TEXT.maintenance });
  });
  hub.use((connection, type) => {
    if (!admin.state.isShutDown || FRAMES_ALLOWED_DURING_SHUTDOWN.has(type)) return true;
    connection.send({ type: 'error', message: SERVICE_TEXT.unavailable, frameType: type });
    return false;
  });

  await app.register(systemRoutes, { isDegraded: () => shared.redisHealth?.isDegraded ?? false });
  await app.register(admin.routes);
  await app.register(adminOps.routes);
  await app.register(auth.routes);
  await app.register(rooms.routes);
  await app.register(moderation.routes);
  await app.register(images.routes);
  await app.register(security.routes);
  await app.register(privacy.routes);
  // tor's exit list: fetched now and hourly; stopped with the server.
  privacy.exitList?.start();
  app.addHook('onClose', () => {
    privacy.exitList?.stop();
    return Promise.resolve();
  });
  await app.register(dm.routes);
  await app.register(payments.routes);
  await app.register(voice.routes);

  // Tor: started at listen when the admin left it running; stopped with the server.
  const tor = createTorFeature({
    db: database.db,
    now,
    dataDir: deps.config.dataDir,
    torBin: deps.config.torBin,
    socksPort: deps.config.torSocksPort,
    controlPort: deps.config.torControlPort,
    searchPath: deps.config.searchPath,
    ...(deps.torSelfTestIntervalMs !== undefined
      ? { selfTestIntervalMs: deps.torSelfTestIntervalMs }
      : {}),
    appAddress: () => {
      const address = app.server.address();
      return address && typeof address === 'object'
        ? { host: address.address, port: address.port }
        : null;
    },
    appServer: () => app.server,
    log: app.log,
    requireAdmin: auth.guards.requireAdmin,
    isAdmin: async (request) => hasPermission(await auth.guards.resolve(request), 'admin'),
    audit: (request, action, detail) =>
      admin.audit.record({ actor: actorName(request.principal), action, detail }),
  });
  await app.register(tor.routes);
  app.addHook('onListen', async () => {
    await tor.tor.resume();
  });
  // Every stored bridge is tested every 30 s while tor runs (spec 000 §9).
  tor.bridges.startPeriodicTests(deps.bridgeTestIntervalMs);
  app.addHook('onClose', async () => {
    tor.bridges.stopPeriodicTests();
    await tor.tor.close();
    await tor.entrance.close();
  });

  // Housekeeping: expired messages leave the server every second; due rooms are destroyed and
  // expired direct messages deleted within a second of their time (the database is asked only
  // when something is due, lib/due-sweep.ts); expired sessions, challenges and admin sessions are
  // swept now and then.
  // While PostgreSQL or Redis is away every task fails each second: such a failure is logged
  // once a minute per task (Redis's outage has its own pair of lines, redis-health.ts).
  const outageLoggedAt = new Map<string, number>();
  const logFailure = (task: string) => (error: unknown) => {
    if (isDependencyUnavailable(error)) {
      if (shared.redisHealth?.isDegraded) return;
      const at = Date.now();
      if (at - (outageLoggedAt.get(task) ?? -Infinity) < 60_000) return;
      outageLoggedAt.set(task, at);
    }
    app.log.error({ task, err: errorForLog(error) }, 'housekeeping failed');
  };
  const timers = [
    setInterval(() => void messages.service.sweep().catch(logFailure('messages')), 1000),
    setInterval(
      () => void messages.service.announceExpired().catch(logFailure('messages')),
      EXPIRY_NOTICE_INTERVAL_MS,
    ),
    setInterval(() => void images.store.expire(now()).catch(logFailure('images')), 1000),
    setInterval(() => void dm.service.sweepIfDue().catch(logFailure('direct-messages')), 1000),
    setInterval(() => void rooms.service.destroyDueRoomsIfAny().catch(logFailure('rooms')), 1000),
    setInterval(
      () => void payments.service.sweep().catch(logFailure('payments')),
      PAYMENT_SWEEP_INTERVAL_MS,
    ),
    // Ended kick cool-downs, mutes and bans, and moderation log lines past 30 days.
    setInterval(
      () => void moderation.service.sweep().catch(logFailure('moderation')),
      MODERATION_SWEEP_INTERVAL_MS,
    ),
    setInterval(() => {
      void auth.service.sweepExpired().catch(logFailure('sessions'));
      void admin.credentials.sweepExpired().catch(logFailure('admin-sessions'));
    }, 10 * 60_000),
  ];
  // With Redis: keep this process's heartbeat alive, and drop members of processes that died.
  // After an outage, once every process is whole again, each room with members here hears its
  // whole member list (redis-health.ts): lists heal without anyone rejoining.
  const sweeper = shared.presenceSweeper;
  const health = shared.redisHealth;
  if (sweeper && health) {
    health.watch({
      logger: app.log,
      onRecovered: async ({ eventsMayBeMissed }) => {
        if (eventsMayBeMissed) {
          // Redis ran on while this process did not hear it: the others' messages, member
          // changes, keys, moderation and service state of that time never reached these
          // sockets. What this process keeps from those events is read again from the database
          // (a shutdown or restore, revoked keys), then the clients join again (1012 is
          // retried): room_joined carries the messages stored meanwhile, and the join's checks
          // run again.
          auth.service.forgetAllKeys();
          const wasShutDown = admin.state.isShutDown;
          await admin.state.reload();
          const sockets = hub.connections.size;
          if (admin.state.isShutDown && !wasShutDown) {
            const { reason, since } = admin.state.current;
            closeForShutdown(reason, since ?? new Date().toISOString());
            app.log.warn({ sockets }, 'redis events were missed: emergency shutdown applied');
            return;
          }
          if (!admin.state.isShutDown && wasShutDown) {
            hub.broadcastAll({ type: 'service_restored', message: SERVICE_TEXT.restored });
          }
          hub.closeAll(RELAY_INTERRUPTED_CLOSE.code, RELAY_INTERRUPTED_CLOSE.reason);
          app.log.warn({ sockets }, 'redis events may have been missed: sockets closed to rejoin');
          return;
        }
        for (const roomId of deps.channels.localRooms()) {
          await roomsFeature().publishUserList(roomId);
        }
      },
    });
    timers.push(
      setInterval(() => {
        void (async () => {
          // Only a whole, not degraded process sweeps: after a Redis restart the others' members
          // come back as each process restores them.
          if (!(await health.tick()) || health.isDegraded) return;
          for (const [roomId, gone] of await sweeper.sweepDead()) {
            const remaining = await rooms.presence.list(roomId);
            for (const member of gone) {
              await voice.service.leave({
                roomId,
                nodeId: member.nodeId,
                username: member.username,
              });
              await deps.channels.publish(roomId, {
                type: 'user_left',
                roomId,
                username: member.username,
                nodeId: member.nodeId,
                memberCount: remaining.length,
              });
            }
            await deps.channels.publish(roomId, {
              type: 'user_list_update',
              roomId,
              users: remaining.map(toRoomUser),
              timestamp: new Date(now()).toISOString(),
            });
          }
        })().catch(logFailure('presence'));
      }, HEARTBEAT_INTERVAL_MS),
    );
  }
  const stopTimers = () => {
    for (const timer of timers) clearInterval(timer);
  };

  return {
    stopTimers,
    rooms: rooms.service,
    presence: rooms.presence,
    messages: messages.service,
    images: images.store,
    pfs: security.pfs,
    dm: dm.service,
    auth: auth.service,
    admin: admin.credentials,
    audit: admin.audit,
    serviceState: admin.state,
    adminOperations: adminOps.operations,
    pong,
    payments: payments.service,
    moderation: moderation.service,
    tor: tor.tor,
    onionEntrance: tor.entrance,
  };
}
