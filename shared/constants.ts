/**
 * Numbers and limits from the specifications, each with its reference.
 * "spec 000" is the core-chat specification, "spec 001" the administration one.
 */

/** Messages and images auto-delete after this many seconds by default (spec 000 §9). */
export const DEFAULT_MESSAGE_TTL_SECONDS = 30;
/** A message at or below this many seconds left is shown red (spec 000 §4). */
export const MESSAGE_WARNING_SECONDS = 5;
/** At or below this many seconds a message shows SELF_DESTRUCT_ACTIVE (spec 000 §4). */
export const MESSAGE_CRITICAL_SECONDS = 3;
/** Default display expiry of system messages, in seconds (spec 000 §4). */
export const SYSTEM_MESSAGE_DISPLAY_SECONDS = 30;
/** Default display expiry of simulation messages, in seconds (spec 000 §4). */
export const SIMULATION_MESSAGE_DISPLAY_SECONDS = 60;
/** Typing stops after this much inactivity, in ms (spec 000 §4, §9). */
export const TYPING_IDLE_MS = 1000;
/** The message list sticks to the bottom within this many px (spec 000 §2, §9). */
export const SCROLL_STICK_THRESHOLD_PX = 100;
/** Scrollbar hide delay in ms (spec 000 §9). */
export const SCROLLBAR_HIDE_DELAY_MS = 600;
/** Image maximum size in bytes: 10 MB (spec 000 §5, §9). */
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;

/** Room self-destruct options offered at creation, in minutes; null = none (spec 000 §9). */
export const ROOM_CREATE_TIMER_OPTIONS = [null, 0.5, 1, 15, 30, 60, 180, 360, 720, 1440] as const;
/** Room self-destruct options of the manual timer dialog, in minutes (spec 000 §9). */
export const ROOM_MANUAL_TIMER_OPTIONS = [
  null,
  0.5,
  1,
  5,
  15,
  30,
  60,
  180,
  360,
  720,
  1440,
] as const;
/** Delay between lines of a terminal log animation, in ms (spec 000 §9). */
export const TERMINAL_LOG_LINE_DELAY_MS = 300;
/** Status messages are cleared after this many ms (spec 000 §9, spec 001 §9). */
export const STATUS_MESSAGE_CLEAR_MS = 10_000;
/** Countdown banner turns orange below this many minutes (spec 001 §9). */
export const COUNTDOWN_ORANGE_MINUTES = 15;
/** Countdown banner turns red (critical) below this many minutes (spec 001 §9). */
export const COUNTDOWN_CRITICAL_MINUTES = 5;
/** The page reloads this long after a room countdown reaches zero, in ms (spec 001 §9). */
export const COUNTDOWN_RELOAD_DELAY_MS = 2000;

/** Chat socket: first connect after this many ms (spec 000 §4, spec 001 §9). */
export const WS_INITIAL_CONNECT_DELAY_MS = 100;
/**
 * Chat socket: after a lost connection it tries again, without limit, after a random wait of up
 * to base × 2^attempt ms, capped (full jitter; issue 35 replaces spec 001 §9's two tries of 3 s
 * and 5 s, which gave up before a restarted server was back).
 */
export const WS_RECONNECT_BASE_MS = 1000;
/** See {@link WS_RECONNECT_BASE_MS}: the longest wait between two tries, in ms. */
export const WS_RECONNECT_MAX_MS = 30_000;
/** Close codes that count as normal and are not followed by a reconnect (spec 000 §4). */
export const WS_NORMAL_CLOSE_CODES = [1000, 1001] as const;

/** Router access-mode poll interval in ms (spec 001 §2, §9). */
export const ACCESS_MODE_POLL_MS = 1000;
/** Delay before `/` redirects to the default room, in ms (spec 001 §2, §9). */
export const DEFAULT_ROOM_REDIRECT_MS = 400;
/** Channel-destroyed page: one log line every this many ms (spec 001 §9). */
export const DESTROYED_LOG_INTERVAL_MS = 200;

/** Loading overlay fade-out in ms (spec 000 §9). */
export const LOADING_FADE_MS = 300;
/** Content behind the loading overlay appears this long after loading ends (spec 000 §9). */
export const LOADING_REVEAL_DELAY_MS = 100;
/** At most this many toasts at a time (spec 000 §9). */
export const TOAST_LIMIT = 1;
/** Removal delay of a dismissed toast, in ms (spec 000 §9). */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** Default toast duration, in ms (spec 000 §9). */
export const TOAST_DURATION_MS = 5000;
/** Toasts are swiped right past this threshold, in px (spec 000 §9). */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** Hotkey that focuses the toast region (spec 000 §9). */
export const TOAST_HOTKEY = 'F8';
/** Tooltip open delay, in ms (spec 000 §9). */
export const TOOLTIP_DELAY_MS = 700;
/** Tooltip skip delay, in ms (spec 000 §9). */
export const TOOLTIP_SKIP_DELAY_MS = 300;
/** Default mobile breakpoint, in px (spec 000 §9). */
export const MOBILE_BREAKPOINT_PX = 768;

/** Identity regeneration reloads the page after this many ms (spec 000 §1). */
export const IDENTITY_RELOAD_DELAY_MS = 1500;
/** Callsign prefixes (spec 000 §1, spec 001 §6). */
export const CALLSIGN_PREFIXES = [
  'Agent',
  'User',
  'Op',
  'Node',
  'Unit',
  'Ghost',
  'Shadow',
  'Cipher',
] as const;
/** Callsign numbers run from 1 to this value (spec 000 §1). */
export const CALLSIGN_MAX_NUMBER = 9999;

/** Theme application repeats at these delays, in ms (spec 000 §4). */
export const THEME_REAPPLY_DELAYS_MS = [50, 100, 200] as const;

/** Default validity of a key in days; 0 means never expires (spec 000 §5, §9). */
export const DEFAULT_KEY_VALIDITY_DAYS = 365;
/** ML-DSA-65 sizes in bytes (spec 000 §9, FIPS 204 table 2). */
export const ML_DSA_65_SIGNATURE_BYTES = 3309;
/** See {@link ML_DSA_65_SIGNATURE_BYTES}. */
export const ML_DSA_65_PUBLIC_KEY_BYTES = 1952;
/** See {@link ML_DSA_65_SIGNATURE_BYTES}. */
export const ML_DSA_65_PRIVATE_KEY_BYTES = 4032;
/** ECDSA P-256 raw signature r‖s, in bytes (DESIGN.md, "Login"). */
export const ECDSA_P256_SIGNATURE_BYTES = 64;
/** Raw uncompressed P-256 point, in bytes (DESIGN.md, "Key file"). */
export const ECDSA_P256_PUBLIC_KEY_BYTES = 65;
/** A login challenge is valid this long, in ms (DESIGN.md, "Login"). */
export const AUTH_CHALLENGE_TTL_MS = 2 * 60 * 1000;

/**
 * Lifetime of a key holder's session, in ms. The specs leave it open; 12 hours bounds what a
 * stolen token is worth while sparing users a login per visit (docs/decisions.md).
 */
export const KEY_SESSION_TTL_MS = 12 * 60 * 60 * 1000;

/** Admin lockout: failures before locking (spec 001 §4, §9). */
export const ADMIN_MAX_FAILED_ATTEMPTS = 3;
/** Admin lockout duration, in ms (spec 001 §9). */
export const ADMIN_LOCKOUT_MS = 5 * 60 * 1000;
/** Admin failure counter resets after this much idle time, in ms (spec 001 §9). */
export const ADMIN_ATTEMPT_RESET_MS = 60 * 1000;
/**
 * Longest an admin password check may hold its address, in ms: only one check per address runs at
 * a time, and a process that dies mid-check frees the address after this (issue 15; the spec
 * leaves concurrency open, docs/decisions.md).
 */
export const ADMIN_CHECK_IN_FLIGHT_MS = 30 * 1000;
/** Failed admin logins are counted per window of this length, without addresses (issue 15). */
export const ADMIN_FAILURE_WINDOW_MS = 60 * 60 * 1000;
/** Admin session lifetime, in ms (spec 001 §9). */
export const ADMIN_SESSION_MS = 10 * 60 * 1000;

/** Access terminal: maximum attempts (spec 000 §4). */
export const ACCESS_TERMINAL_MAX_ATTEMPTS = 3;
/** Access terminal: delay before the success action, in ms (spec 000 §4). */
export const ACCESS_TERMINAL_SUCCESS_DELAY_MS = 1500;
/** Access terminal: the terminal closes this long after the last failure, in ms (spec 000 §4). */
export const ACCESS_TERMINAL_CLOSE_DELAY_MS = 2000;

/** Unread count in the title is capped here and shown as 99+ (spec 000 §2). */
export const UNREAD_TITLE_CAP = 99;
/** Title blink interval, in ms (spec 000 §2). */
export const TITLE_BLINK_MS = 1000;

/** How often the Network Monitor measures the round trip to /api/ping (spec 000 §2, §7). */
export const LATENCY_PROBE_MS = 5_000;

/** Privacy check cache and refresh interval, in ms (spec 000 §9). */
export const PRIVACY_CHECK_REFRESH_MS = 300_000;

/** Encryption: PFS key rotation, in ms (spec 000 §9). */
export const PFS_KEY_ROTATION_MS = 30 * 60 * 1000;
/** Encryption: shared-secret grace period after expiry, in ms (spec 000 §9). */
export const PFS_GRACE_PERIOD_MS = 10 * 60 * 1000;
/** Encryption: signature key rotation, in ms (spec 000 §9). */
export const SIGNATURE_KEY_ROTATION_MS = 5 * 60 * 1000;
/** Encryption: PBKDF2-SHA-256 iterations (spec 000 §9). */
export const PBKDF2_ITERATIONS = 100_000;
/** Encryption: AES-GCM IV length in bytes (spec 000 §9, spec 001 §9). */
export const AES_GCM_IV_BYTES = 12;

/** Direct-message auto-delete options in seconds (spec 001 §9). */
export const DM_TIMER_OPTIONS_SECONDS = [
  10, 30, 60, 300, 900, 1800, 3600, 7200, 21600, 43200, 86400,
] as const;
/** Default direct-message auto-delete, in seconds (spec 001 §9). */
export const DM_DEFAULT_TIMER_SECONDS = 86400;

/** Tier minimums in USD (spec 001 §5, §9). */
export const TIER_MIN_USD = { general: 75, restricted: 250, classified: 1000 } as const;

/** Key-purchase tiers, cheapest first (spec 001 §3). */
export const PAYMENT_TIER_IDS = ['general', 'restricted', 'classified'] as const;

/** Cryptocurrencies a key can be bought with, in the spec's order (spec 001 §9). */
export const PAYMENT_CURRENCIES = [
  'BTC',
  'ETH',
  'USDT',
  'ADA',
  'ATOM',
  'AVAX',
  'BCH',
  'BNB',
  'DASH',
  'DOGE',
  'DOT',
  'ETC',
  'FIL',
  'LINK',
  'LTC',
  'MATIC',
  'NEAR',
  'SHIB',
  'SOL',
  'TRX',
  'UNI',
  'USDC',
  'XLM',
  'XMR',
  'XRP',
  'ZEC',
] as const;

/** Confirmations a payment needs: BTC 3, ETH 12, every other currency 6 (spec 001 §9). */
export const REQUIRED_CONFIRMATIONS = { BTC: 3, ETH: 12, other: 6 } as const;

/** Lifetime of a payment session (the local record and the unpaid invoice), 20 min (spec 001 §9). */
export const PAYMENT_SESSION_TTL_MS = 20 * 60 * 1000;
/** Payment status polling interval, 10 s (spec 001 §9). */
export const PAYMENT_POLL_INTERVAL_MS = 10 * 1000;
/** Payment status polling stops after 60 min (spec 001 §9). */
export const PAYMENT_POLL_MAX_MS = 60 * 60 * 1000;
/** Price refresh interval, 60 s (spec 001 §7, §9). */
export const PRICE_REFRESH_MS = 60 * 1000;
/** Minimum amounts served when the price feed fails (spec 001 §9). */
export const FALLBACK_MIN_AMOUNT = { BTC: 0.0005, ETH: 0.0143 } as const;
/** Payment QR code: 200 px wide, margin 2 (spec 001 §9). */
export const PAYMENT_QR = { widthPx: 200, margin: 2 } as const;

/**
 * Progress shown for each payment status (spec 001 §4): pending 20 %, confirming 40 % plus
 * confirmations over required scaled to 40 %, confirmed 80 %, generating 90 %, ready 100 %.
 */
export const PAYMENT_PROGRESS = {
  pending: 20,
  confirming: 40,
  confirmingSpan: 40,
  confirmed: 80,
  generating: 90,
  ready: 100,
} as const;

/** Pong constants (spec 001 §9). */
export const PONG = {
  canvasWidth: 800,
  canvasHeight: 400,
  paddleWidth: 10,
  paddleHeight: 80,
  ballSize: 8,
  paddleSpeed: 5,
  initialBallSpeed: 4,
  reconnectDelayMs: 2000,
  cyberpunkAnimationMs: 3000,
  glitchMs: 1500,
  winningScore: 10,
  maxPlayers: 2,
  speedBarScale: 12,
} as const;

/** Tor read-only configuration shown to admins (spec 000 §9, spec 001 §2). */
export const TOR_DISPLAY_CONFIG = {
  socksPort: 9050,
  controlPort: 9051,
  hiddenServicePort: 5000,
  exitPolicy: 'reject *:*',
} as const;

/** Tor timings (spec 000 §4, §7, §9; spec 001 §4, §9). */
export const TOR = {
  /** Circuit timeout: a connect that has not built a circuit by then is reported failed. */
  circuitTimeoutMs: 60_000,
  /** The hidden-service self-test repeats this often while connected; also a bridge test's limit. */
  bridgeTestIntervalMs: 30_000,
  /** The service polls GET /api/tor/status every 5 s, the status card every 3 s (spec 000 §7). */
  servicePollMs: 5_000,
  cardPollMs: 3_000,
  /** The admin Tor tab polls every 10 s while open (spec 000 §9, spec 001 §4). */
  adminPollMs: 10_000,
  /** The admin tab refreshes this long after start, stop and restart (spec 001 §4). */
  refreshAfterStartMs: 2_000,
  refreshAfterStopMs: 1_000,
  refreshAfterRestartMs: 3_000,
  /** While connecting the progress bar rises 10 % a second up to 90 % (spec 000 §4). */
  progressStepPercent: 10,
  progressStepMs: 1_000,
  progressCapPercent: 90,
  /** Onion address length without `.onion` (spec 000 §9). */
  onionAddressLength: 56,
  /** Default loopback ports (spec 000 §9); TOR_SOCKS_PORT and TOR_CONTROL_PORT override them. */
  defaultSocksPort: 9050,
  defaultControlPort: 9051,
} as const;

/**
 * Server-side limits. The specs leave these open ("Server-side limits: not shown", spec 001 §9);
 * the values and reasons are in docs/decisions.md.
 */
export const LIMITS = {
  /** Largest WebSocket frame answered with an error frame; larger ones never reach JSON.parse. */
  wsFrameBytes: 64 * 1024,
  /** Hard cap enforced by the socket library: a frame above it closes the socket with 1009. */
  wsHardFrameBytes: 1024 * 1024,
  /** Largest JSON body accepted by ordinary routes. */
  httpBodyBytes: 256 * 1024,
} as const;

/*
 * Room moderation (issue 23; spec 000 §6 leaves "what each role may do in a room" open, so these
 * are the product's own choices, docs/decisions.md).
 */
/** A kicked member may rejoin the room after this many milliseconds. */
export const KICK_COOLDOWN_MS = 2 * 60_000;
/** Longest mute, in minutes (one day). */
export const MUTE_MAX_MINUTES = 1440;
/** Longest timed ban, in minutes (one year); key holders can also be banned for good. */
export const BAN_MAX_MINUTES = 525_600;
/** Longest ban of an anonymous visitor (by address), in minutes: one day. */
export const ANONYMOUS_BAN_MAX_MINUTES = 1440;
/** Days a room's moderation log is kept. */
export const MODERATION_LOG_RETENTION_DAYS = 30;

/*
 * Voice (spec 000 §7 "public STUN servers, with a fallback"; DESIGN.md "Voice").
 */
/**
 * The ICE servers a call uses when the operator sets no `ICE_SERVERS`: public STUN servers of two
 * operators, so that one being down leaves the other (spec 000 §7). STUN only reveals a peer's
 * public address to that server; no media passes through it.
 */
export const DEFAULT_STUN_SERVERS: readonly { urls: string | string[] }[] = [
  { urls: ['stun:stun.l.google.com:19302', 'stun:stun1.l.google.com:19302'] },
  { urls: 'stun:stun.cloudflare.com:3478' },
];

/** Most channels a browser keeps in its own channel list (localStorage `knownRooms`; not in the spec). */
export const KNOWN_ROOMS_MAX = 30;
