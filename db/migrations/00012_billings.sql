-- +goose Up
-- Billings (spec "Billing"): a billing is not a movement until it is paid,
-- so it has its own table; its paid money is a statement line in
-- transactions (account_transaction_id) and postings in the ledger. Amounts
-- here are the billing's attributes, not balances. page_token names the
-- public slip or invoice page (unguessable). customer is {id, name, taxId}.
CREATE TABLE billings (
    id                      text PRIMARY KEY,
    account_id              text NOT NULL REFERENCES accounts(id),
    api_key_id              text,
    method                  text NOT NULL CHECK (method IN ('BOLETO', 'CARD_CREDIT', 'CARD_DEBIT', 'CARD_VOUCHER', 'PIX')),
    status                  text NOT NULL CHECK (status IN ('PENDING', 'CONFIRMED', 'RECEIVED', 'OVERDUE', 'CANCELED', 'REFUNDED', 'PARTIALLY_REFUNDED', 'FAILED')),
    amount                  bigint NOT NULL CHECK (amount > 0),
    fee_amount              bigint NOT NULL CHECK (fee_amount >= 0),
    notification_fee_amount bigint NOT NULL CHECK (notification_fee_amount >= 0),
    net_amount              bigint NOT NULL,
    refunded_amount         bigint NOT NULL DEFAULT 0 CHECK (refunded_amount >= 0 AND refunded_amount <= amount),
    installment_count       int NOT NULL DEFAULT 1 CHECK (installment_count BETWEEN 1 AND 21),
    description             text NOT NULL DEFAULT '',
    due_date                date NOT NULL,
    paid_at                 timestamptz,
    estimated_credit_date   date,
    external_id             text,
    external_reference      text,
    account_transaction_id  text,
    customer_id             text,
    subscription_id         text,
    charge_id               text,
    page_token              text NOT NULL UNIQUE,
    customer                jsonb NOT NULL,
    details                 jsonb NOT NULL DEFAULT '{}',
    created_at              timestamptz NOT NULL DEFAULT now(),
    updated_at              timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billings_account_idx ON billings (account_id, created_at DESC, id DESC);
CREATE INDEX billings_external_id_idx ON billings (account_id, external_id) WHERE external_id IS NOT NULL;
CREATE INDEX billings_customer_idx ON billings (account_id, customer_id) WHERE customer_id IS NOT NULL;

-- Card tokens (POST /billings/tokenize-card, or a first card billing): the
-- processor's vault token and what may be shown of the card. No card
-- number or CVV is ever stored.
CREATE TABLE card_tokens (
    id              text PRIMARY KEY,
    account_id      text NOT NULL REFERENCES accounts(id),
    customer_id     text,
    processor_token text NOT NULL,
    brand           text NOT NULL,
    last4           text NOT NULL CHECK (last4 ~ '^[0-9]{4}$'),
    expiry_month    int NOT NULL,
    expiry_year     int NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now()
);

-- The counterpart of boleto and card money that the bank or the acquirer
-- settles with the platform (docs/ledger.md "Billings").
INSERT INTO ledger_accounts (id, kind, allow_negative) VALUES ('platform:billing_clearing', 'clearing', true)
    ON CONFLICT (id) DO NOTHING;

-- +goose Down
DROP TABLE card_tokens;
DROP TABLE billings;
DELETE FROM ledger_accounts WHERE id = 'platform:billing_clearing';
