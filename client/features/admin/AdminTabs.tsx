/**
 * Accessible tabs for the admin panel (WAI-ARIA tabs pattern): one tab stop, arrow keys move and
 * activate, Home and End jump. Panels stay mounted (hidden) so a tab keeps its state.
 */
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface AdminTab<T extends string> {
  id: T;
  label: string;
}

export interface AdminTabListProps<T extends string> {
  tabs: readonly AdminTab<T>[];
  active: T;
  onChange: (id: T) => void;
  /** Prefix of the tab and panel element ids. */
  idPrefix: string;
  label: string;
}

export const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
export const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

export function AdminTabList<T extends string>({
  tabs,
  active,
  onChange,
  idPrefix,
  label,
}: AdminTabListProps<T>) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  const move = (index: number) => {
    const count = tabs.length;
    const next = tabs[((index % count) + count) % count];
    if (!next) return;
    onChange(next.id);
    buttons.current[tabs.indexOf(next)]?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      className="flex gap-1 overflow-x-auto border-b border-border"
    >
      {tabs.map((tab, index) => {
        const isActive = tab.id === active;
        return (
          <button
            key={tab.id}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={tabId(idPrefix, tab.id)}
            aria-selected={isActive}
            aria-controls={panelId(idPrefix, tab.id)}
            tabIndex={isActive ? 0 : -1}
            data-testid={`admin-tab-${tab.id}`}
            onClick={() => onChange(tab.id)}
            onKeyDown={(event) => onKeyDown(event, index)}
            className={`-mb-px shrink-0 border-b-2 px-3 py-2 text-[0.75rem] font-bold tracking-[0.18em] whitespace-nowrap uppercase transition-colors ${
              isActive
                ? 'border-primary bg-primary/10 text-primary'
                : 'border-transparent text-muted hover:text-fg'
            }`}
          >
            {tab.label}
          </button>
        );
      })}
    </div>
  );
}

export function AdminTabPanel({
  idPrefix,
  id,
  isActive,
  children,
}: {
  idPrefix: string;
  id: string;
  isActive: boolean;
  children: ReactNode;
}) {
  return (
    <div
      role="tabpanel"
      id={panelId(idPrefix, id)}
      aria-labelledby={tabId(idPrefix, id)}
      hidden={!isActive}
      tabIndex={0}
      className="pt-4 focus-visible:outline-offset-4"
      data-testid={`admin-panel-${id}`}
    >
      {children}
    </div>
  );
}
