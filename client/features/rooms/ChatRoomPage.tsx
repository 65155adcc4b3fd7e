/**
 * The chat room screen (spec 000 §2 "Chat room screen"): header, control row, channel list
 * (hidden under 768 px, where a selector replaces it), the live conversation, the operatives
 * list (a drawer on narrow screens), the dialogs and the AUTH_STATUS footer line. The live chat
 * itself is useChatRoom; this component composes and routes user intent.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation, useParams } from 'wouter';
import { TEXT } from '../../../shared/protocol/errors.js';
import type { Room } from '../../../shared/protocol/http/rooms.js';
import { LoadingOverlay } from '../../ui/LoadingOverlay.js';
import { linkPhase, linkText } from '../../lib/realtime/chat-socket.js';
import { lazyComponent } from '../../lib/lazy-component.js';
import { useBotChallenge, loadChatAdminTools } from '../admin/index.js';
import {
  loadModerationLogDialog,
  loadMemberMenu,
  memberActions,
  resolveModerationCommand,
  ModerationToolbar,
  useModeration,
} from '../moderation/index.js';
import { loadTorAdminOverlay } from '../tor/index.js';
import { loadVoiceCallOverlay, useRoomCallSize } from '../voice/index.js';
import { useAuth } from '../../lib/session/use-auth.js';
import { MessageMemberButton } from '../dm/index.js';
import { accessCodeFor, RoomE2eeContext, SecurityStatusBar, useRoomE2ee } from '../e2ee/index.js';
import { useCallsign } from '../identity/index.js';
import {
  resolveChatCommand,
  describeSimulation,
  createMessageCipher,
  MessageInput,
  MessageList,
  PendingMessages,
  PlaintextWarning,
  TypingIndicator,
  useTypingSignal,
} from '../messages/index.js';
import { describeThemeDebug } from '../themes/index.js';
import type { AccessTerminalProps } from './AccessTerminal.js';
import { fetchDefaultRoom, roomKeys } from '../../lib/rooms/api.js';
import { clearInviteFragment, parseInviteFragment } from '../../lib/rooms/invite-fragment.js';
import { rememberKnownRoom } from '../../lib/rooms/known-rooms.js';
import { mayModerate } from '../../../shared/moderation/permissions.js';
import { AuthStatusLine } from './AuthStatusLine.js';
import type { ChatDialog } from './ChatDialogs.js';
import { ChannelList } from './ChannelList.js';
import { ChatControls } from './ChatControls.js';
import { ChatHeader } from './ChatHeader.js';
import { ConnectionBanner } from './ConnectionBanner.js';
import { OperativesDrawer } from './OperativesDrawer.js';
import { useAdminCommand } from './use-admin-command.js';
import { useChatRoom, type ChatRoom } from './use-chat-room.js';
import { useRoomLookup } from './use-room-lookup.js';
import { useHasPassed, useNow } from '../../lib/use-now.js';
import { useUnreadTitle } from './use-unread-title.js';

/** The call window and everything behind it load only when a call starts. */
const VoiceCallOverlay = lazy(loadVoiceCallOverlay);

/** The placeholder of the disabled input: why nothing can be sent right now. */
function inputBlockedText(chat: ChatRoom, room: Room | null): string {
  if (chat.status === 'disconnected' && linkPhase(chat.link) !== 'reconnecting') {
    return 'CONNECTION_LOST: reconnect to send';
  }
  if (chat.status === 'connecting') return 'ESTABLISHING_LINK...';
  if (chat.isAccessRequired) return 'ACCESS CODE REQUIRED';
  if (chat.isJoinRefused) return 'ACCESS REFUSED';
  return room ? 'JOINING CHANNEL...' : TEXT.loading;
}

// Dialogs and tools a member opens on demand (channel dialogs, admin and Tor tools, the
// moderation log) load after the room has painted, not before (issue 22, target 5).
const ChatDialogs = lazyComponent(() => import('./ChatDialogs.js'), 'ChatDialogs');
const ChatAdminTools = lazyComponent(loadChatAdminTools, 'ChatAdminTools');
const ModerationLogDialog = lazyComponent(loadModerationLogDialog, 'ModerationLogDialog');
const TorAdminOverlay = lazyComponent(loadTorAdminOverlay, 'TorAdminOverlay');
// Read and check a key file only when this tab lacks it (a reload without a remembered key).
const KeyFilePrompt = lazyComponent(() => import('./KeyFilePrompt.js'), 'KeyFilePrompt');
// So do the parts of the first screen that are not the conversation: the access code terminal,
// the invite link and self-destruct banners, and the members' menus (Radix dropdown).
const AccessTerminal = lazyComponent<'AccessTerminal', AccessTerminalProps>(
  () => import('./AccessTerminal.js'),
  'AccessTerminal',
);
const CountdownBanner = lazyComponent(() => import('./CountdownBanner.js'), 'CountdownBanner');
const InviteLinkPanel = lazyComponent(() => import('./InviteLinkPanel.js'), 'InviteLinkPanel');
const MemberMenu = lazyComponent(loadMemberMenu, 'MemberMenu');

/**
 * Private rooms show the invite-link panel to their creator and members, who are in the room
 * already and so can hand the way in on (issue 33), and, as spec 000 §2 has it for top-secret
 * rooms "for a flagged user", to key holders, who may enter every room without its code.
 */
function showsInviteLink(room: Room, isJoined: boolean, isKeyHolder: boolean): boolean {
  return room.isPrivate && (isJoined || isKeyHolder);
}

export function ChatRoomPage() {
  const { secureId = '' } = useParams<{ secureId: string }>();
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const { data, isError: isLookupFailed } = useRoomLookup(secureId);
  const room = data ?? null;
  // An invite link may carry the access code in its fragment: read once for the room it names,
  // then removed from the address before anything else happens.
  const [invite] = useState(() => ({
    secureId,
    code: parseInviteFragment(window.location.hash),
  }));
  useEffect(() => clearInviteFragment(), []);
  const inviteCode = invite.secureId === secureId ? invite.code : null;
  const { callsign, regenerate } = useCallsign();
  const { user, sessionToken, logout, keyFile, keyFileState } = useAuth();
  const isKeyHolder = user !== null && sessionToken !== null;
  const [cipher] = useState(createMessageCipher);
  const { notifyUnread } = useUnreadTitle(room ? `#${room.name} · SecureChannel` : 'SecureChannel');
  const chat = useChatRoom({
    room,
    username: user?.username ?? callsign,
    sessionToken: isKeyHolder ? sessionToken : null,
    cipher,
    onMessageFromOthers: notifyUnread,
  });
  const e2ee = useRoomE2ee({
    cipher,
    socket: chat.socket,
    room,
    keyFile,
    sessionToken: isKeyHolder ? sessionToken : null,
  });
  // A call's keys travel over the room's key channel: the call opens once it has loaded.
  const voiceKeys = e2ee.engine === 'ready' ? cipher.engine?.manager : undefined;
  const isEncrypting = e2ee.status.phase === 'ready';
  // Joined, but this browser's keys for the room are not ready: messages sent now are held.
  const isKeyAgreementPending =
    chat.isJoined &&
    e2ee.engine !== 'failed' &&
    !e2ee.status.hasKeyAgreementFailed &&
    !(e2ee.status.isReadyToSend && e2ee.status.roomId === room?.id);
  // A private room this browser entered stays in its channel list (lib/rooms/known-rooms.ts).
  const joinedRoom = chat.isJoined && room?.isPrivate ? room : null;
  useEffect(() => {
    if (joinedRoom) void rememberKnownRoom(joinedRoom, 'joined');
  }, [joinedRoom]);
  // Down or coming back: every readout says so, none says ACTIVE (issue 35).
  const phase = linkPhase(chat.link);
  const linkDown = phase === 'reconnecting' || phase === 'disconnected' ? phase : null;
  const typingSignal = useTypingSignal(chat.sendTyping, chat.isJoined);
  const adminCommand = useAdminCommand();
  // A challenge that stopped a join is followed by a fresh connection, which joins again.
  const botChallenge = useBotChallenge(chat.onFrame, chat.sendFrame, () => {
    if (!chat.isJoined) chat.reconnect();
  });

  const moderation = useModeration(chat.onFrame, chat.sendFrame, room?.id ?? null);
  const [isModerationLogOpen, setModerationLogOpen] = useState(false);
  // The page renders again when a mute runs out, and every second only while a retry counts
  // down; the message countdowns and the session timer tick in their own components.
  const isMuteOver = useHasPassed(
    moderation.mutedUntil === null ? null : Date.parse(moderation.mutedUntil),
  );
  const mutedUntil = isMuteOver ? null : moderation.mutedUntil;
  const clock = useNow(1000, linkDown === 'reconnecting');

  // Offered only to who may use them (issue 33): the timer to the room's creator, moderators and
  // service admins, never on the public channel (the server refuses both); the Tor admin overlay
  // to admin key holders.
  const defaultRoom = useQuery({ queryKey: roomKeys.defaultRoom, queryFn: fetchDefaultRoom });
  const isPublicChannel = room !== null && defaultRoom.data?.secureId === room.secureId;
  const mayEditTimer = !isPublicChannel && mayModerate(moderation.role, 'set_timer');
  const isAdmin = isKeyHolder && user?.permissions.level === 'admin';

  const [isChannelListOpen, setChannelListOpen] = useState(true);
  const [isOperativesOpen, setOperativesOpen] = useState(false);
  const [isHeaderCollapsed, setHeaderCollapsed] = useState(false);
  const [isTorAdminOpen, setTorAdminOpen] = useState(false);
  const [dialog, setDialog] = useState<ChatDialog | null>(null);
  // A call belongs to one joined room and connection: switching rooms or losing the link ends it.
  const callRoomId = chat.isJoined ? (room?.id ?? null) : null;
  const callNodeId = chat.isJoined ? chat.nodeId : null;
  const currentCallKey = callRoomId && callNodeId ? `${callRoomId}:${callNodeId}` : null;
  const [callKey, setCallKey] = useState<string | null>(null);
  const isInCall = callKey !== null && callKey === currentCallKey;
  const callSize = useRoomCallSize(chat.onFrame, callRoomId);

  // A switch is under way when the lines on screen belong to another room than the one asked for.
  const isSwitching =
    chat.linesRoomId !== null &&
    chat.linesRoomId !== (room?.id ?? null) &&
    chat.status === 'connected' &&
    !isLookupFailed &&
    !chat.isAccessRequired &&
    !chat.isJoinRefused &&
    botChallenge.challenge === null;

  const submit = async (text: string, isStealthMode: boolean): Promise<boolean> => {
    const trimmed = text.trim();
    if (trimmed === '') return false;
    const moderationCommand = resolveModerationCommand(
      trimmed,
      chat.users,
      chat.nodeId,
      moderation.role,
    );
    if (moderationCommand) {
      typingSignal.onSent();
      if (moderationCommand.kind === 'local')
        chat.addLocalLine(moderationCommand.text, moderationCommand.level);
      else if (!chat.sendFrame(moderationCommand.frame))
        chat.addLocalLine('Not connected: the command was not sent', 'warning');
      return true;
    }
    const command = resolveChatCommand(trimmed, {
      isKeyHolder,
      isAdmin,
      isModerator: moderation.role !== 'member',
    });
    if (command && command.kind !== 'send') {
      typingSignal.onSent();
      if (command.kind === 'local') chat.addLocalLine(command.text, command.level);
      else if (command.kind === 'debug-theme') chat.addLocalLine(describeThemeDebug());
      else if (command.kind === 'navigate') navigate(command.to);
      else if (command.kind === 'simulation')
        chat.addSimulationLines(describeSimulation(chat.lines));
      else adminCommand.onAdminCommand();
      return true;
    }
    const isSent = await chat.sendMessage(command ? command.text : trimmed, isStealthMode);
    if (isSent) typingSignal.onSent();
    return isSent;
  };

  const cancelAccess = () => {
    if (window.history.length > 1) window.history.back();
    else navigate('/', { replace: true });
  };

  const toggleOperatives = () => setOperativesOpen((open) => !open);
  const toggleHeader = () => setHeaderCollapsed((collapsed) => !collapsed);

  return (
    <RoomE2eeContext.Provider value={e2ee}>
      <div className="flex h-dvh flex-col bg-background text-fg">
        <ChatHeader
          room={room}
          status={chat.status}
          linkText={linkText(chat.link, clock)}
          memberCount={chat.memberCount}
          isCollapsed={isHeaderCollapsed}
          onToggleCollapsed={toggleHeader}
          isOperativesOpen={isOperativesOpen}
          onToggleOperatives={toggleOperatives}
          isKeyHolder={isKeyHolder}
          isEndToEnd={isEncrypting}
          security={{
            isWaiting: isKeyAgreementPending,
            link: linkDown,
            level: e2ee.level,
            alert:
              e2ee.transport.certificate === 'invalid'
                ? 'certificate'
                : e2ee.hasKeySubstitution
                  ? 'key-substitution'
                  : null,
          }}
          onNetworkMonitor={() => setDialog('network')}
          onSecurityProtocols={() => setDialog('security')}
          onTorAdmin={isAdmin ? () => setTorAdminOpen(true) : undefined}
          voice={{
            isInCall,
            callSize,
            isAvailable: callRoomId !== null && callNodeId !== null,
            onToggle: () => setCallKey(isInCall ? null : currentCallKey),
          }}
          forgetKey={user ? { username: user.username, onSelect: () => void logout() } : null}
        />
        <SecurityStatusBar
          e2ee={e2ee}
          identity={user?.username ?? callsign}
          keyAuth={
            user
              ? {
                  keyId: user.keyId,
                  level: user.permissions.level,
                  capabilities: user.permissions.capabilities,
                }
              : null
          }
        />
        {room?.destructionAt ? (
          <Suspense fallback={null}>
            <CountdownBanner key={room.destructionAt} destructionAt={room.destructionAt} />
          </Suspense>
        ) : null}
        {linkDown ? (
          <ConnectionBanner
            onReconnect={chat.reconnect}
            reconnecting={linkDown === 'reconnecting' ? linkText(chat.link, clock) : null}
          />
        ) : null}
        {keyFileState === 'missing' || keyFileState === 'locked' ? (
          <Suspense fallback={null}>
            <KeyFilePrompt />
          </Suspense>
        ) : null}
        <ChatControls
          room={room}
          isChannelListOpen={isChannelListOpen}
          onToggleChannelList={() => setChannelListOpen((open) => !open)}
          isOperativesOpen={isOperativesOpen}
          onToggleOperatives={toggleOperatives}
          onCreate={() => setDialog('create')}
          onAudio={() => setDialog('audio')}
          onTimer={mayEditTimer ? () => setDialog('timer') : null}
        />

        <div className="flex min-h-0 flex-1">
          {isChannelListOpen ? (
            <aside className="hidden w-64 shrink-0 border-r border-border bg-surface md:block">
              <ChannelList currentSecureId={secureId} />
            </aside>
          ) : null}
          <main
            className="flex min-w-0 flex-1 flex-col"
            aria-label="Conversation"
            data-testid="conversation"
          >
            {room && showsInviteLink(room, chat.isJoined, isKeyHolder) ? (
              <Suspense fallback={null}>
                <InviteLinkPanel key={room.id} room={room} accessCode={accessCodeFor(room.id)} />
              </Suspense>
            ) : null}
            <MessageList
              lines={chat.lines}
              linesAt={chat.linesAt}
              emptyText="NO ACTIVE TRANSMISSIONS · messages self-destruct shortly after they are sent"
            />
            <TypingIndicator usernames={chat.typing.map((user) => user.username)} />
            <PendingMessages
              pending={chat.pending}
              onSendInClear={chat.sendPendingInClear}
              onCancel={chat.cancelPending}
              onResend={chat.resendFailed}
            />
            {isKeyAgreementPending ? <PlaintextWarning variant="waiting" /> : null}
            {e2ee.status.hasKeyAgreementFailed ? <PlaintextWarning /> : null}
            <MessageInput
              isDisabled={(!chat.isJoined && !chat.isRejoining) || mutedUntil !== null}
              disabledText={
                mutedUntil !== null
                  ? `MUTED BY A MODERATOR UNTIL ${mutedUntil.slice(11, 16)} UTC`
                  : inputBlockedText(chat, room)
              }
              onSubmit={submit}
              onTextChange={typingSignal.onInput}
              imageRoomId={room?.id ?? null}
              onSendImage={
                // An image's key may travel only inside an end-to-end encrypted payload.
                cipher.isEndToEnd
                  ? (uploaded) => chat.sendPayload({ v: 1, text: '', image: uploaded.image }, false)
                  : null
              }
            />
          </main>
          <OperativesDrawer
            isOpen={isOperativesOpen}
            onClose={() => setOperativesOpen(false)}
            users={chat.users}
            currentNodeId={chat.nodeId}
            memberMenu={(member) => (
              <>
                {isKeyHolder && member.nodeId !== chat.nodeId ? (
                  <MessageMemberButton
                    member={member}
                    onOpenDirectMessages={() => navigate('/direct-messages')}
                    onNotice={(text) => chat.addLocalLine(text, 'info')}
                  />
                ) : null}
                <Suspense fallback={null}>
                  <MemberMenu
                    username={member.username}
                    actions={memberActions(moderation.role, member, member.nodeId === chat.nodeId)}
                    onAction={(action) => moderation.act(action, member.nodeId)}
                  />
                </Suspense>
              </>
            )}
            toolbar={
              <ModerationToolbar
                role={moderation.role}
                isLocked={moderation.isLocked}
                onToggleLock={() =>
                  chat.sendFrame({ type: moderation.isLocked ? 'unlock_room' : 'lock_room' })
                }
                onOpenLog={() => setModerationLogOpen(true)}
              />
            }
          />
        </div>

        <AuthStatusLine
          username={user?.username ?? callsign}
          securityLevel={user?.permissions.level ?? null}
          onRegenerate={user ? null : regenerate}
        />

        <Suspense fallback={null}>
          <ChatDialogs
            dialog={dialog}
            onClose={() => setDialog(null)}
            room={room}
            onCreated={(created) => {
              if (created.isPrivate) void rememberKnownRoom(created, 'created');
              void queryClient.invalidateQueries({ queryKey: roomKeys.all });
              navigate(`/chat/${created.secureId}`);
            }}
          />
          {room && chat.isAccessRequired ? (
            <AccessTerminal
              room={room}
              onGranted={chat.grantAccess}
              onCancel={cancelAccess}
              initialCode={inviteCode}
            />
          ) : null}
          <ChatAdminTools
            admin={
              isKeyHolder && user.permissions.level === 'admin'
                ? { sessionToken, keyId: user.keyId }
                : null
            }
            isAdminPanelOpen={adminCommand.isAdminPanelOpen}
            onAdminPanelOpenChange={adminCommand.setAdminPanelOpen}
            isJoined={chat.isJoined}
            send={chat.sendFrame}
            onFrame={chat.onFrame}
            botChallenge={botChallenge}
          />
          {room ? (
            <ModerationLogDialog
              roomId={room.id}
              open={isModerationLogOpen}
              onOpenChange={setModerationLogOpen}
              send={chat.sendFrame}
            />
          ) : null}
          <TorAdminOverlay open={isTorAdminOpen} onOpenChange={setTorAdminOpen} />
        </Suspense>
        {isInCall && callRoomId !== null && callNodeId !== null && voiceKeys ? (
          <Suspense fallback={null}>
            <VoiceCallOverlay
              key={currentCallKey}
              socket={chat.socket}
              keys={voiceKeys}
              roomId={callRoomId}
              selfNodeId={callNodeId}
              username={user?.username ?? callsign}
              onClose={() => setCallKey(null)}
            />
          </Suspense>
        ) : null}
        <LoadingOverlay isLoading={isSwitching} message={TEXT.switchingChannel} />
      </div>
    </RoomE2eeContext.Provider>
  );
}
