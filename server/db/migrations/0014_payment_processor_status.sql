-- The processor's own word for a payment (issue 32): NOWPayments' payment_status as last learnt
-- (waiting, confirming, confirmed, sending, partially_paid, finished, failed, refunded, expired),
-- shown to the buyer in words instead of a confirmation counter the processor never fills in.
-- NULL for sandbox payments and before the processor said anything.
ALTER TABLE payments ADD COLUMN provider_status text;
