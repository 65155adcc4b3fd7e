export { MessageMemberButton } from './MessageMemberButton.js';
