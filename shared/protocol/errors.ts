/**
 * User-facing texts from the specifications, kept in one place so that server answers, toasts
 * and tests agree on every character. No schemas here: every page loads these texts before it
 * paints, and zod must not come with them (issue 22, target 5); the error body's schema is in
 * ./http/error-body.ts.
 */

/** Texts of spec 000 §2–§8 and spec 001 §2–§8. */
export const TEXT = {
  notFoundTitle: '404 Page Not Found',
  notFoundHint: 'Did you forget to add the page to the router?',
  themeOutsideProvider: 'useTheme must be used within a ThemeProvider',
  identityRegenerated: 'IDENTITY_REGENERATED',
  regenerationFailedTitle: 'REGENERATION_FAILED',
  regenerationFailed: 'Unable to regenerate identity',
  invalidFileType: 'Invalid File Type',
  invalidFileTypeLanding: 'Please select a valid .sck or .bin key file',
  invalidFileTypeKeyPage: 'Please upload a valid .sck or .bin key file',
  invalidKeyJson: 'Invalid key file format - not valid JSON',
  invalidKeyFields: 'Invalid key file - missing required fields',
  keyIntegrityFailed: 'Key integrity validation failed',
  keyParseFailed: 'Failed to parse key file',
  uploadFailed: 'Upload Failed',
  failedToLoadKeyFile: 'Failed to load key file',
  keyValidated: 'Key Validated',
  authenticationFailed: 'Authentication Failed',
  authenticationFailedDefault: 'Failed to authenticate with the provided key',
  authenticationSuccessful: 'Authentication Successful',
  registrationFailed: 'Key registration failed',
  challengeFailed: 'Failed to get authentication challenge',
  /** Spec 000 §5: the auth service's verification failure without a server text (key page). */
  verificationFailed: 'Authentication verification failed',
  /** Spec 001 §8: the landing page's verification failure without a server text. */
  landingVerificationFailed: 'Authentication failed',
  noSessionToken: 'No session token received',
  usernameRequiredTitle: 'Username Required',
  usernameRequired: 'Please enter a username for the key',
  pongRequiresKey:
    'PONG access requires authentication with a premium key, use /get-key to obtain access.',
  adminAccessDenied: 'Access denied, admin privileges required',
  switchingAccessMode: 'SWITCHING ACCESS MODE...',
  initializingChannels: 'INITIALIZING SECURE CHANNELS...',
  switchingChannel: 'SWITCHING SECURE CHANNEL...',
  loading: 'LOADING...',
  roomNotFound: 'Room not found',
  invalidRoomId: 'Invalid room id',
  serviceUnavailable: 'Service temporarily unavailable',
  /**
   * HTTP 503 (with `Retry-After`) while PostgreSQL or Redis cannot be reached: the request did
   * nothing and may be repeated (DESIGN.md principle 10).
   */
  dependencyUnavailable: 'The service is temporarily unavailable, try again shortly',
  internalError: 'Internal server error',
  invalidRequest: 'Invalid request',
  tooManyRequests: 'Too many requests',
  unauthorized: 'Authentication required',
  forbidden: 'Insufficient permissions',
  keyNotRegistered: 'Key not registered',
  challengeInvalid: 'Invalid or expired challenge',
  signatureInvalid: 'Signature verification failed',
  loginBusy: 'Too many logins at once; try again shortly',
  keyRevoked: 'Key has been revoked',
  keyExpired: 'Key has expired',
  privateKeysRefused: 'Private keys must never be sent to the server',
  keyAlreadyRegistered: 'Key already registered',
  sessionInvalid: 'Session expired or invalid',
  adminRequired: 'Admin privileges required',
  zkInvalidFormat: 'Invalid ZK encrypted format',
  // Crypto state errors (spec 000 §8 "Crypto state").
  keysNotInitialized: 'Keys not initialized. Call initializeKeyExchange first',
  pfsNotInitialized: 'PFS not initialized',
  sharedSecretNotFound: 'Shared secret not found',
  sharedSecretExpired: 'Shared secret expired',
  forwardSecrecyKeyExpired: 'Forward secrecy: message key expired',
  keyRotationUndecryptable: 'Message cannot be decrypted due to key rotation',
  signatureSystemNotInitialized: 'Signature system not initialized',
  pfsKeyExchangeFailed: 'PFS key exchange failed',
  classifiedNeedsCode: 'Security Protocol Error: Classified channels require access codes',
  /** The `error` frame answering `join_room` for a locked room without a grant. */
  roomAccessCodeRequired: 'Access code required',
  // Landing page (spec 001 §2).
  publicAccess: 'PUBLIC ACCESS',
  enterPublicChannel: 'ENTER PUBLIC CHANNEL',
  authenticatedAccess: 'AUTHENTICATED ACCESS',
  authenticate: 'AUTHENTICATE',
  getAKey: 'GET A KEY',
  // Channel destroyed page (spec 001 §2).
  channelNotFound: 'CHANNEL NOT FOUND',
  selfDestructExecuted: 'SELF-DESTRUCT EXECUTED',
  permanentlyDestroyed: 'PERMANENTLY DESTROYED',
  allDataPurged: 'ALL DATA PURGED',
  returnToPublicChannel: 'RETURN_TO_PUBLIC_CHANNEL',
  createNewChannel: 'CREATE_NEW_CHANNEL',
  // Emergency shutdown and maintenance pages (spec 001 §2).
  connectionTerminated: 'CONNECTION TERMINATED',
  allChannelsClosed: 'ALL SECURE CHANNELS CLOSED',
  tryAgainInFewMinutes: 'Please try again in a few minutes.',
  chatServiceOffline: 'CHAT SERVICE OFFLINE',
  // Channel dialogs, access terminal and invite link (spec 000 §4, §8).
  channelCreated: 'Secure Channel Created',
  creationFailedTitle: 'Creation Failed',
  creationFailed: 'Unable to establish secure channel. Try again.',
  timerUpdated: 'Self-Destruct Timer Updated',
  timerUpdateFailedTitle: 'Configuration Failed',
  timerUpdateFailed: 'Unable to update self-destruct timer.',
  accessGranted: 'ACCESS GRANTED',
  accessDenied: 'ACCESS DENIED',
  invalidCredentials: 'INVALID CREDENTIALS',
  securityAlertLogged: 'SECURITY ALERT LOGGED',
  tryAgain: 'TRY AGAIN...',
  maxAttemptsReached: 'MAX ATTEMPTS REACHED - CONNECTION TERMINATED',
  failedAttempts: 'FAILED ATTEMPTS',
  systemError: 'SYSTEM ERROR',
  connectionLost: 'CONNECTION LOST',
  retrying: 'RETRYING...',
  copied: 'Copied!',
  copyFailed: 'Copy Failed',
  // Administration: admin password, emergency panel and console (spec 001 §2, §5, §8).
  adminPasswordRequired: 'Password required',
  adminAuthenticationFailed: 'Authentication failed',
  adminAuthenticationError: 'Authentication error occurred',
  shutdownReasonRequired: 'Please provide a reason for the emergency shutdown.',
  /** Shown as `Emergency shutdown failed: {message}` (spec 001 §8). */
  emergencyShutdownFailed: 'Emergency shutdown failed',
  /** Shown as `Service restore failed: {message}` ("restore likewise", spec 001 §8). */
  serviceRestoreFailed: 'Service restore failed',
  serviceRestored: 'SERVICE RESTORED',
  adminAccess: 'ADMIN ACCESS',
  // Admin panel key management (spec 001 §5, §8).
  keyRevokedTitle: 'Key Revoked',
  revocationFailedTitle: 'Revocation Failed',
  revocationFailed: 'Could not revoke the key',
  keyRegistrationWarningTitle: 'Warning',
  keyGeneratedNotRegistered: 'Key generated but not registered with server',
  generationFailedTitle: 'Generation Failed',
  // Bot-check dialog (spec 000 §2, §4, §5; spec 001 §2, §8).
  securityVerification: 'Security Verification',
  verificationSuccessful: 'Verification Successful',
  /** The server's `error` frame while a challenge is unanswered (server/features/abuse). */
  verificationPending: 'Complete the security verification first',
  // Direct messages (spec 001 §2, §4, §5, §8).
  errorTitle: 'Error',
  dmNoConversations: 'No conversations yet',
  dmNoMessages: 'No messages yet',
  dmFetchThreadsFailed: 'Failed to fetch threads',
  dmFetchMessagesFailed: 'Failed to fetch messages',
  dmFetchUsersFailed: 'Failed to fetch users',
  dmCreateThreadFailed: 'Failed to create conversation thread',
  dmSendFailed: 'Failed to send message',
  dmSendFailedRetry: 'Failed to send message. Please try again.',
  dmDeleteFailedRetry: 'Failed to delete conversation. Please try again.',
  dmAutoDeleteFailed: 'Failed to delete expired conversation',
  dmThreadDeletedTitle: 'Thread Deleted',
  dmThreadDestroyed: 'Conversation has been permanently destroyed.',
  dmThreadDeletedByOther: 'This conversation has been deleted by the other party.',
  dmRecipientFound: 'Verified secure ID found',
  dmRecipientNotFound: 'Secure ID not found or invalid',
  dmRecipientIsSelf: 'You cannot start a conversation with yourself',
  /** The recipient's encryption key does not verify against its identity key: refuse to wrap. */
  dmRecipientKeyUnverified:
    "The recipient's encryption key failed its signature check. Conversation refused.",
  dmDecryptionError: '[DM-DECRYPTION-ERROR]',
  dmCopiedTitle: 'Copied',
  dmSecureIdCopied: 'Secure ID copied to clipboard',
  copyFailedDescription: 'Could not copy to clipboard',
  dmWrongKeyFile: 'This key file belongs to another identity than the one signed in',
  // Encrypted images (spec 000 §2, §4, §8).
  imageEncrypting: 'ENCRYPTING...',
  imageUploadFailed: 'Upload failed',
  imageDownloadFailed: 'Download failed',
  imageDestroyed: 'IMAGE DESTROYED',
  /** The disabled upload button's tooltip while messages cannot carry an image key end to end. */
  imagesNeedEndToEnd: 'Images need end-to-end encryption',
  // Room end-to-end encryption in the browser (spec 000 §4 "Certificate status", §8).
  /** Followed by the HTTP status: `Server entropy request failed with status 503` (spec 000 §8). */
  serverEntropyFailed: 'Server entropy request failed with status',
  certificateValidationFailed: 'Certificate validation failed - connection may be compromised',
  certMismatch: 'CERT_MISMATCH',
  certFail: 'CERT_FAIL',
  resetCertificates: 'RESET_CERTIFICATES',
  /** A member's identity key differs from the pinned or registered one, or its bundle is forged. */
  keySubstitutionDetected: 'KEY SUBSTITUTION DETECTED',
  waitingForKeyAgreement: 'Waiting for key agreement',
} as const;

/** Texts of WebSocket `error` frames. */
export const WS_ERROR = {
  frameTooLarge: 'Frame too large',
  invalidJson: 'Malformed frame: not valid JSON',
  unknownType: 'Unknown frame type',
  invalidFrame: (type: string) => `Invalid ${type} frame`,
  unsupported: (type: string) => `Frame type ${type} is not handled on this endpoint`,
  rateLimited: 'Rate limit exceeded: slow down',
  internal: 'Frame could not be processed',
  /**
   * A message refused because the sender's messages still waiting to expire are over their byte
   * budget (issue 31); it was neither stored nor relayed.
   */
  heldBytesSender:
    'Message not sent: too many of your messages are still waiting to expire. Wait a few seconds and send it again',
  /** The same, for the budget of all visitors' held messages together. */
  heldBytesTotal:
    'Message not sent: the server is holding too many messages right now. Wait a few seconds and send it again',
  /**
   * Answers a `send_message` that was not relayed to the room (the relay, Redis, is away or was
   * lost while the message was on its way): the sender's own `new_message` may not come, and if
   * it does, other members may not have had it. Send it again once the relay is back.
   */
  notRelayed: 'Message not sent: the relay is unavailable, try again shortly',
  /** A frame that needs PostgreSQL or Redis while it cannot be reached; nothing was done. */
  unavailable: 'The service is temporarily unavailable, try again shortly',
} as const;
