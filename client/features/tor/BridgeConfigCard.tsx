/**
 * The bridge configuration card (spec 000 §2, §3, §5, §8): the stored bridges with Test and
 * Remove, and the Add and Import dialogs. Missing transport binaries are reported, not hidden.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { TOR } from '../../../shared/constants.js';
import { TOR_TEXT, type Bridge, type BridgeList } from '../../../shared/protocol/http/tor.js';
import { toast } from '../../ui/use-toast.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import {
  BADGE,
  BADGE_TONE,
  SECTION_TITLE,
  SMALL_BUTTON,
  SMALL_DANGER_BUTTON,
} from '../../ui/admin-styles.js';
import { AddBridgeDialog } from './AddBridgeDialog.js';
import { ImportBridgesDialog } from './ImportBridgesDialog.js';
import { fetchBridges, removeBridge, testBridge, torQueryKeys } from './tor-api.js';

export interface BridgeConfigCardProps {
  credential: AdminCredential;
}

export function BridgeConfigCard({ credential }: BridgeConfigCardProps) {
  const queryClient = useQueryClient();
  const bridges = useQuery({
    queryKey: [...torQueryKeys.bridges, credential.kind],
    queryFn: () => fetchBridges(credential),
    // The server tests every bridge every 30 s while tor runs: show each round's results.
    refetchInterval: TOR.bridgeTestIntervalMs,
    retry: false,
  });
  const [isAddOpen, setAddOpen] = useState(false);
  const [isImportOpen, setImportOpen] = useState(false);
  const [busyId, setBusyId] = useState<string | null>(null);
  const listKey = [...torQueryKeys.bridges, credential.kind];
  const refresh = () => void queryClient.invalidateQueries({ queryKey: torQueryKeys.bridges });
  /** Shows new bridges at once (the refetch that follows confirms them). */
  const showAdded = (added: readonly Bridge[]) => {
    queryClient.setQueryData<BridgeList>(listKey, (current) =>
      current
        ? {
            ...current,
            bridges: [
              ...current.bridges,
              ...added.filter((bridge) => !current.bridges.some((row) => row.id === bridge.id)),
            ],
          }
        : current,
    );
    refresh();
  };

  const test = async (bridge: Bridge) => {
    setBusyId(bridge.id);
    try {
      const result = await testBridge(credential, bridge.id);
      toast(
        result.success
          ? {
              title: TOR_TEXT.bridgeTestSuccessful,
              description: result.message,
              variant: 'success',
            }
          : {
              title: TOR_TEXT.bridgeTestFailed,
              description: result.message,
              variant: 'destructive',
            },
      );
    } catch {
      toast({
        title: TOR_TEXT.bridgeTestError,
        description: TOR_TEXT.bridgeTestErrorDetail,
        variant: 'destructive',
      });
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (bridge: Bridge) => {
    setBusyId(bridge.id);
    try {
      await removeBridge(credential, bridge.id);
      toast({ title: TOR_TEXT.bridgeRemoved, description: `${bridge.type} ${bridge.address}` });
      refresh();
    } catch (error) {
      toast({
        title: TOR_TEXT.bridgeNotFound,
        description: error instanceof Error ? error.message : undefined,
        variant: 'destructive',
      });
    } finally {
      setBusyId(null);
    }
  };

  const list = bridges.data?.bridges ?? [];
  return (
    <section
      aria-labelledby="bridge-card-title"
      className="border border-border bg-background p-4"
      data-testid="bridge-card"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="bridge-card-title" className={SECTION_TITLE}>
          Bridge management
        </h3>
        <div className="flex gap-2">
          <button type="button" className={SMALL_BUTTON} onClick={() => setAddOpen(true)}>
            Add
          </button>
          <button type="button" className={SMALL_BUTTON} onClick={() => setImportOpen(true)}>
            Import
          </button>
        </div>
      </div>
      {bridges.isError ? (
        <p role="alert" className="mt-3 text-xs text-danger">
          {bridges.error.message}
        </p>
      ) : null}
      {bridges.data && bridges.data.missingTransports.length > 0 ? (
        <p role="status" className="mt-3 text-xs text-warning">
          Not installed: {bridges.data.missingTransports.join(', ')}. Those bridges are kept but not
          given to tor.
        </p>
      ) : null}
      {list.length === 0 ? (
        <p className="mt-3 text-xs text-muted">
          No bridges. Tor connects directly; add bridges where Tor is blocked.
        </p>
      ) : (
        <ul className="mt-3 space-y-2" data-testid="bridge-list">
          {list.map((bridge) => (
            <li
              key={bridge.id}
              className="flex flex-wrap items-center justify-between gap-2 border border-border/70 bg-surface/40 px-3 py-2 text-xs"
            >
              <div className="min-w-0">
                <span className={`${BADGE} ${BADGE_TONE.accent} mr-2`}>{bridge.type}</span>
                <span className="font-bold text-fg">{bridge.address}</span>
                <span className="ml-2 text-muted" title={bridge.fingerprint}>
                  {bridge.fingerprint.slice(0, 8)}…{bridge.fingerprint.slice(-4)}
                </span>
                <span className="ml-2 text-muted">{bridge.country}</span>
                {bridge.active ? null : <span className="ml-2 text-warning">inactive</span>}
                {bridge.lastTest ? (
                  <span
                    className={`ml-2 ${bridge.lastTest.success ? 'text-primary' : 'text-danger'}`}
                    title={bridge.lastTest.message}
                    data-testid="bridge-last-test"
                  >
                    {bridge.lastTest.success ? 'test passed' : 'test failed'} at{' '}
                    {new Date(bridge.lastTest.testedAt).toLocaleTimeString()}
                  </span>
                ) : null}
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={SMALL_BUTTON}
                  disabled={busyId === bridge.id}
                  onClick={() => void test(bridge)}
                >
                  Test
                </button>
                <button
                  type="button"
                  className={SMALL_DANGER_BUTTON}
                  disabled={busyId === bridge.id}
                  onClick={() => void remove(bridge)}
                  aria-label={`Remove bridge ${bridge.address}`}
                >
                  Remove
                </button>
              </div>
            </li>
          ))}
        </ul>
      )}
      <AddBridgeDialog
        open={isAddOpen}
        onOpenChange={setAddOpen}
        credential={credential}
        onAdded={(bridge) => showAdded([bridge])}
      />
      <ImportBridgesDialog
        open={isImportOpen}
        onOpenChange={setImportOpen}
        credential={credential}
        onImported={(bridges) => showAdded(bridges)}
      />
    </section>
  );
}
