/**
 * The frame both service-down pages share (spec 001 §2): the header with the product name and a
 * pulsing status word in the page's tone, the 'SERVICE RESTORED' banner above the notice once
 * the service is back, the footer, and the emergency admin panel behind ADMIN ACCESS.
 */
import type { ReactNode } from 'react';
import { EmergencyAdminPanel, ServiceRestoredBanner } from '../admin/index.js';

/** Whole class names per tone, so that Tailwind sees every one of them. */
const TONES = {
  danger: { header: 'border-danger/50', status: 'text-danger', dot: 'bg-danger' },
  warning: { header: 'border-warning/50', status: 'text-warning', dot: 'bg-warning' },
} as const;

export interface ServiceDownFrameProps {
  tone: keyof typeof TONES;
  /** The header's status word: 'Lockdown', 'Offline'. */
  status: string;
  /** The banner's text once the service is back, else null. */
  restoredMessage: string | null;
  /** The notice's width, which the banner above it matches. */
  widthClass: string;
  footer: ReactNode;
  isAdminOpen: boolean;
  onAdminOpenChange: (open: boolean) => void;
  /** Where the admin goes once they have restored the service. */
  afterRestorePath: string;
  /** The notice. */
  children: ReactNode;
}

export function ServiceDownFrame({
  tone,
  status,
  restoredMessage,
  widthClass,
  footer,
  isAdminOpen,
  onAdminOpenChange,
  afterRestorePath,
  children,
}: ServiceDownFrameProps) {
  const classes = TONES[tone];
  return (
    <div className="flex min-h-screen flex-col bg-background font-mono text-fg">
      <header
        className={`flex items-center justify-between border-b ${classes.header} px-4 py-3 text-xs uppercase tracking-[0.25em] sm:px-6`}
      >
        <span className="font-bold text-primary">SecureChannel</span>
        <span className={`flex items-center gap-2 ${classes.status}`}>
          <span aria-hidden="true" className={`size-2 animate-pulse rounded-full ${classes.dot}`} />
          {status}
        </span>
      </header>

      <main className="flex flex-1 flex-col items-center justify-center gap-6 px-4 py-10 sm:px-6">
        {restoredMessage !== null ? (
          <div className={`w-full ${widthClass}`}>
            <ServiceRestoredBanner message={restoredMessage} />
          </div>
        ) : null}
        {children}
      </main>

      {footer}
      <EmergencyAdminPanel
        open={isAdminOpen}
        onOpenChange={onAdminOpenChange}
        afterRestorePath={afterRestorePath}
        allowAdminKey
      />
    </div>
  );
}
