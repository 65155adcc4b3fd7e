/** The payment QR code: 200 px wide with a margin of 2 modules (spec 001 §9), drawn locally. */
import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { PAYMENT_QR } from '../../../shared/constants.js';

export function PaymentQr({ text }: { text: string }) {
  const [dataUrl, setDataUrl] = useState<string | null>(null);
  useEffect(() => {
    let isCurrent = true;
    QRCode.toDataURL(text, {
      width: PAYMENT_QR.widthPx,
      margin: PAYMENT_QR.margin,
      errorCorrectionLevel: 'M',
    }).then(
      (url) => {
        if (isCurrent) setDataUrl(url);
      },
      () => {
        if (isCurrent) setDataUrl(null);
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [text]);
  return (
    <div
      className="flex h-[200px] w-[200px] shrink-0 items-center justify-center bg-white"
      data-testid="payment-qr"
    >
      {dataUrl ? (
        <img
          src={dataUrl}
          width={PAYMENT_QR.widthPx}
          height={PAYMENT_QR.widthPx}
          alt="QR code of the payment address and amount"
        />
      ) : null}
    </div>
  );
}
