/**
 * The Add bridge dialog (spec 000 §2, §5): type, address and fingerprint (required), transport
 * options and country (optional). Toasts 'Bridge Added', or 'Invalid Bridge Configuration' with
 * the reason.
 */
import { useId, useState, type FormEvent } from 'react';
import {
  BRIDGE_TYPES,
  TOR_TEXT,
  type Bridge,
  type BridgeType,
} from '../../../shared/protocol/http/tor.js';
import { toast } from '../../ui/use-toast.js';
import { FIELD, HINT, LABEL } from '../../ui/admin-styles.js';
import type { AdminCredential } from '../../lib/admin/admin-api.js';
import { CancelSubmitRow, TerminalDialog } from '../../ui/TerminalDialog.js';
import { addBridge } from './tor-api.js';

export interface AddBridgeDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  credential: AdminCredential;
  onAdded: (bridge: Bridge) => void;
}

export function AddBridgeDialog({ open, onOpenChange, credential, onAdded }: AddBridgeDialogProps) {
  const ids = useId();
  const [type, setType] = useState<BridgeType>('obfs4');
  const [address, setAddress] = useState('');
  const [fingerprint, setFingerprint] = useState('');
  const [args, setArgs] = useState('');
  const [country, setCountry] = useState('');
  const [isBusy, setBusy] = useState(false);

  const reset = () => {
    setType('obfs4');
    setAddress('');
    setFingerprint('');
    setArgs('');
    setCountry('');
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (address.trim() === '' || fingerprint.trim() === '') {
      toast({
        title: TOR_TEXT.invalidBridgeTitle,
        description: TOR_TEXT.addressAndFingerprintRequired,
        variant: 'destructive',
      });
      return;
    }
    setBusy(true);
    try {
      const bridge = await addBridge(credential, {
        type,
        address: address.trim(),
        fingerprint: fingerprint.trim(),
        args: args.trim() || undefined,
        country: country.trim() || undefined,
      });
      toast({
        title: TOR_TEXT.bridgeAdded,
        description: `${type} ${address.trim()}`,
        variant: 'success',
      });
      reset();
      onAdded(bridge);
      onOpenChange(false);
    } catch (error) {
      toast({
        title: TOR_TEXT.invalidBridgeTitle,
        description:
          error instanceof Error ? error.message : TOR_TEXT.addressAndFingerprintRequired,
        variant: 'destructive',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <TerminalDialog
      open={open}
      onOpenChange={onOpenChange}
      title="Add bridge"
      description="A bridge helps Tor through networks that block it. Type, address and fingerprint come from your bridge line."
      windowLabel="root@securechannel:~/tor/bridges"
      testId="add-bridge-dialog"
    >
      <form className="space-y-3" onSubmit={(event) => void submit(event)} noValidate>
        <div>
          <label htmlFor={`${ids}-type`} className={LABEL}>
            Type
          </label>
          <select
            id={`${ids}-type`}
            className={FIELD}
            value={type}
            onChange={(event) => setType(event.target.value as BridgeType)} // options are BRIDGE_TYPES
          >
            {BRIDGE_TYPES.map((value) => (
              <option key={value} value={value}>
                {value}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label htmlFor={`${ids}-address`} className={LABEL}>
            Address <span aria-hidden="true">*</span>
          </label>
          <input
            id={`${ids}-address`}
            className={FIELD}
            value={address}
            placeholder="192.0.2.10:443"
            autoComplete="off"
            onChange={(event) => setAddress(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-fingerprint`} className={LABEL}>
            Fingerprint <span aria-hidden="true">*</span>
          </label>
          <input
            id={`${ids}-fingerprint`}
            className={FIELD}
            value={fingerprint}
            placeholder="40 hexadecimal characters"
            autoComplete="off"
            onChange={(event) => setFingerprint(event.target.value)}
          />
        </div>
        <div>
          <label htmlFor={`${ids}-args`} className={LABEL}>
            Transport options
          </label>
          <input
            id={`${ids}-args`}
            className={FIELD}
            value={args}
            placeholder="cert=… iat-mode=0"
            autoComplete="off"
            onChange={(event) => setArgs(event.target.value)}
          />
          <p className={HINT}>
            key=value pairs separated by spaces, as your bridge line gives them.
          </p>
        </div>
        <div>
          <label htmlFor={`${ids}-country`} className={LABEL}>
            Country
          </label>
          <input
            id={`${ids}-country`}
            className={FIELD}
            value={country}
            placeholder="Unknown"
            autoComplete="off"
            onChange={(event) => setCountry(event.target.value)}
          />
        </div>
        <CancelSubmitRow
          onCancel={() => onOpenChange(false)}
          submitLabel="Add bridge"
          busyLabel="Adding…"
          isBusy={isBusy}
        />
      </form>
    </TerminalDialog>
  );
}
