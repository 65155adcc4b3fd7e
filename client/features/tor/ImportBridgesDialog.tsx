/**
 * The Import bridges dialog (spec 000 §2, §5): one bridge a line, `type address fingerprint`;
 * blank lines and `#` lines are skipped. Toasts 'Bridges Imported' with the count, or 'Import
 * Failed' / 'No valid bridges found in the provided configuration'.
 */
import { useId, useState, type FormEvent } from 'react';
import { parseBridgeImport, TOR_TEXT, type Bridge } from '../../../shared/protocol/http/tor.js';
import { toast } from '../../ui/use-toast.js';
import { FIELD, HINT, LABEL } from '../../ui/admin-styles.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import { CancelSubmitRow, TerminalDialog } from '../../ui/TerminalDialog.js';
import { importBridges } from './tor-api.js';

export interface ImportBridgesDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  credential: AdminCredential;
  onImported: (bridges: Bridge[]) => void;
}

export function ImportBridgesDialog({
  open,
  onOpenChange,
  credential,
  onImported,
}: ImportBridgesDialogProps) {
  const ids = useId();
  const [config, setConfig] = useState('');
  const [isBusy, setBusy] = useState(false);
  const preview = parseBridgeImport(config);

  const fail = (description: string) =>
    toast({ title: TOR_TEXT.importFailedTitle, description, variant: 'destructive' });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (preview.bridges.length === 0) {
      fail(TOR_TEXT.noValidBridges);
      return;
    }
    setBusy(true);
    try {
      const result = await importBridges(credential, config);
      const skipped = result.rejected > 0 ? `, ${result.rejected} invalid line(s) skipped` : '';
      toast({
        title: TOR_TEXT.bridgesImported,
        description: `${result.imported} bridge(s) imported${skipped}`,
        variant: 'success',
      });
      setConfig('');
      onImported(result.bridges);
      onOpenChange(false);
    } catch (error) {
      fail(error instanceof Error ? error.message : TOR_TEXT.noValidBridges);
    } finally {
      setBusy(false);
    }
  };

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Import bridges"
      description="Paste bridge lines, one a line: type address fingerprint, then any transport options."
      windowLabel="root@securechannel:~/tor/bridges"
      widthClass="max-w-2xl"
      testId="import-bridges-dialog"
    >
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        <div>
          <label htmlFor={`${ids}-config`} className={LABEL}>
            Bridge lines
          </label>
          <textarea
            id={`${ids}-config`}
            className={`${FIELD} min-h-40 font-mono text-xs`}
            value={config}
            spellCheck={false}
            placeholder={
              '# obfs4, meek, snowflake or webtunnel\nobfs4 192.0.2.10:443 0123456789ABCDEF0123456789ABCDEF01234567 cert=… iat-mode=0'
            }
            onChange={(event) => setConfig(event.target.value)}
          />
          <p className={HINT} data-testid="import-preview">
            {preview.bridges.length} valid · {preview.rejected} invalid (blank and # lines are
            skipped)
          </p>
        </div>
        <CancelSubmitRow
          onCancel={() => onOpenChange(false)}
          submitLabel="Import"
          busyLabel="Importing…"
          isBusy={isBusy}
        />
      </form>
    </TerminalDialog>
  );
}
