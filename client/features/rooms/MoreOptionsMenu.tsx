/** The header's More Options menu (spec 000 §2). */
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useLocation } from 'wouter';
import { clearAccessMode } from '../../lib/session/access-mode.js';

export interface MoreOptionsMenuProps {
  /** Extra items supplied by features (Network Monitor, Security Protocols). */
  items?: { label: string; onSelect: () => void; testId: string }[];
  /** For a logged-in key holder: Forget Key (with the username) replaces Back to Landing. */
  forgetKey?: { username: string; onSelect: () => void } | null;
}

export function MoreOptionsMenu({ items = [], forgetKey = null }: MoreOptionsMenuProps) {
  const [, navigate] = useLocation();
  const backToLanding = () => {
    clearAccessMode();
    navigate('/landing');
  };
  const itemClass =
    'cursor-pointer px-3 py-2 text-xs tracking-wider text-fg outline-none data-[highlighted]:bg-primary/15 data-[highlighted]:text-primary';
  return (
    <DropdownMenu.Root>
      <DropdownMenu.Trigger
        aria-label="More options"
        data-testid="more-options"
        className="rounded border border-border px-2 py-1 text-primary hover:bg-primary/10"
      >
        ⋮
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content
          align="end"
          sideOffset={6}
          className="z-50 min-w-48 rounded border border-border bg-surface py-1 shadow-lg"
        >
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.testId}
              className={itemClass}
              data-testid={item.testId}
              onSelect={item.onSelect}
            >
              {item.label}
            </DropdownMenu.Item>
          ))}
          {forgetKey ? (
            <DropdownMenu.Item
              className={itemClass}
              data-testid="menu-forget-key"
              onSelect={forgetKey.onSelect}
            >
              Forget Key ({forgetKey.username})
            </DropdownMenu.Item>
          ) : (
            <DropdownMenu.Item
              className={itemClass}
              data-testid="menu-back-to-landing"
              onSelect={backToLanding}
            >
              Back to Landing
            </DropdownMenu.Item>
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
