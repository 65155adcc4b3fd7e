/**
 * The purchase routes (spec 001 §7 "Cryptocurrency purchase"; DESIGN.md "Payments"):
 * availability, prices, generate-payment, payment-status, purchase-key (the public part of the
 * key the buyer's browser made), generate-key (registers it; 402 while unconfirmed), the sandbox
 * chain's pay route (sandbox mode only) and the NOWPayments IPN callback (nowpayments mode only). When the server sells no keys (provider
 * `none`), every one of them but availability answers 503 before its input is read.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { KEY_FILE_MAX_CHARS } from '../../../shared/crypto/key-file-schema.js';
import { ErrorBodySchema } from '../../../shared/protocol/http/error-body.js';
import {
  GenerateKeyRequestSchema,
  GenerateKeyResponseSchema,
  GeneratePaymentResponseSchema,
  IpnResponseSchema,
  PAYMENT_TEXT,
  PaymentIdParamsSchema,
  PaymentRequiredResponseSchema,
  PaymentStatusResponseSchema,
  PricesResponseSchema,
  PurchaseKeyResponseSchema,
  PurchaseAvailabilitySchema,
  SandboxPayRequestSchema,
  SandboxPayResponseSchema,
} from '../../../shared/protocol/http/payments.js';
import { AppError } from '../../errors.js';
import { visitorOfRequest } from '../../lib/visitor.js';
import type { PriceFeed } from './price-feed.js';
import {
  NowPaymentStateSchema,
  observationOf,
  type NowPaymentsProvider,
} from './providers/nowpayments.js';
import { PaymentRequiredError, type PaymentService } from './service.js';

export interface PaymentRouteOptions {
  service: PaymentService;
  prices: PriceFeed;
  /** The NOWPayments adapter when it is the provider: its IPN route is registered. */
  nowpayments: NowPaymentsProvider | null;
}

/** Errors every purchase route may answer (503: this server sells no keys). */
const clientErrors = {
  400: ErrorBodySchema,
  404: ErrorBodySchema,
  409: ErrorBodySchema,
  410: ErrorBodySchema,
  503: ErrorBodySchema,
};

export function paymentRoutes(options: PaymentRouteOptions): FastifyPluginAsync {
  const { service } = options;
  return async (fastify) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/crypto/availability',
      {
        schema: {
          tags: ['payments'],
          summary: 'Whether this server sells keys, and through which provider (none: no sales)',
          response: { 200: PurchaseAvailabilitySchema },
        },
      },
      () => ({ available: service.mode !== 'none', provider: service.mode }),
    );

    // No sales: every purchase route below is refused before its body or parameters are read
    // (the service refuses too, for any caller that is not a route).
    if (service.mode === 'none') {
      fastify.addHook('onRequest', async (request) => {
        if (request.routeOptions.url === '/api/crypto/availability') return;
        throw new AppError('PURCHASES_UNAVAILABLE', 503, PAYMENT_TEXT.purchasesUnavailable);
      });
    }

    app.get(
      '/api/crypto/prices',
      {
        schema: {
          tags: ['payments'],
          summary:
            'BTC and ETH prices and minimum amounts, and every listed currency with whether it can be invoiced now and why not; refreshed every 60 s',
          response: { 200: PricesResponseSchema, 503: ErrorBodySchema },
        },
      },
      () => service.prices(),
    );

    app.post(
      '/api/crypto/generate-payment',
      {
        schema: {
          tags: ['payments'],
          summary:
            'Open a payment for a tier ({currency, minAmountUsd, username}); body checked by GeneratePaymentRequestSchema',
          response: {
            200: GeneratePaymentResponseSchema,
            400: ErrorBodySchema,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      // The body is parsed by the service, so that an unknown currency or tier gets its own text.
      (request) => service.createPayment(request.body, visitorOfRequest(request)),
    );

    app.get(
      '/api/crypto/payment-status/:paymentId',
      {
        schema: {
          tags: ['payments'],
          summary: 'Where a payment stands, with confirmations and, once ready, the download',
          params: PaymentIdParamsSchema,
          response: { 200: PaymentStatusResponseSchema, ...clientErrors },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return service.status(request.params.paymentId);
      },
    );

    app.post(
      '/api/crypto/generate-key',
      {
        schema: {
          tags: ['payments'],
          summary:
            "Register the buyer's key of a confirmed payment (once) and answer its receipt; 402 while it is not confirmed",
          body: GenerateKeyRequestSchema,
          response: {
            200: GenerateKeyResponseSchema,
            402: PaymentRequiredResponseSchema,
            500: ErrorBodySchema,
            ...clientErrors,
          },
        },
      },
      async (request, reply) => {
        try {
          return await service.generateKey(request.body.paymentId);
        } catch (error) {
          if (!(error instanceof PaymentRequiredError)) throw error;
          return reply.code(402).send({
            error: error.message,
            status: error.paymentStatus,
            confirmations: error.confirmations,
            requiredConfirmations: error.requiredConfirmations,
          });
        }
      },
    );

    app.post(
      '/api/crypto/purchase-key',
      {
        // A public part with its proof is about 40 kB of JSON; never a private key.
        bodyLimit: KEY_FILE_MAX_CHARS,
        schema: {
          tags: ['payments'],
          summary:
            "The public part of the key the buyer's browser made, with both keys' signatures over the payment's keyChallenge; registered once the payment is confirmed",
          response: { 200: PurchaseKeyResponseSchema, ...clientErrors },
        },
      },
      // Parsed by the service, so that each refusal gets its own text.
      (request) => service.submitKey(request.body),
    );

    if (service.isSandbox) {
      app.post(
        '/api/crypto/sandbox/pay',
        {
          schema: {
            tags: ['payments'],
            summary: 'Sandbox chain only: broadcast an amount to a payment’s address',
            body: SandboxPayRequestSchema,
            response: { 200: SandboxPayResponseSchema, ...clientErrors },
          },
        },
        (request) => service.sandboxPay(request.body.paymentId, request.body.amount),
      );
    }

    const nowpayments = options.nowpayments;
    if (nowpayments) {
      app.post(
        '/api/crypto/ipn',
        {
          bodyLimit: KEY_FILE_MAX_CHARS,
          schema: {
            tags: ['payments'],
            summary:
              'NOWPayments IPN callback: x-nowpayments-sig must be the HMAC-SHA512 of the key-sorted body',
            response: { 200: IpnResponseSchema, 400: ErrorBodySchema, 401: ErrorBodySchema },
          },
        },
        async (request) => {
          // The signature covers the body exactly as sent, so it is checked before any schema
          // strips a field, and before anything changes.
          const signature = request.headers['x-nowpayments-sig'];
          if (
            !nowpayments.verifyIpn(
              request.body,
              typeof signature === 'string' ? signature : undefined,
            )
          ) {
            request.log.warn('payment notification with a bad signature refused');
            throw new AppError('IPN_SIGNATURE', 401, PAYMENT_TEXT.invalidSignature);
          }
          const parsed = NowPaymentStateSchema.safeParse(request.body);
          if (!parsed.success)
            throw new AppError('IPN_BODY', 400, PAYMENT_TEXT.unknownProviderPayment);
          const outcome = await service.applyProviderUpdate(
            String(parsed.data.payment_id),
            observationOf(parsed.data),
          );
          if (outcome === null) {
            throw new AppError('IPN_UNKNOWN', 400, PAYMENT_TEXT.unknownProviderPayment);
          }
          // A replayed or late notification changes nothing; the processor still gets its 200.
          return outcome === 'unchanged'
            ? { ok: true as const, note: PAYMENT_TEXT.ipnNothingChanged }
            : { ok: true as const };
        },
      );
    }
  };
}
