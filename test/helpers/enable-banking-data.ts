/**
 * The data the local Enable Banking fake (test/helpers/enable-banking.ts) serves: banks (ASPSPs) with their accounts,
 * balances and transactions. Wire fields keep the published snake_case names and shapes; the few fields only the
 * fake reads (an account's `key`, `psuTypes`, `emptyPages`, a bank's `accounts`) are camelCase and never sent.
 */

export type PsuType = 'personal' | 'business';

export interface AmountType {
  currency: string;
  amount: string;
}

export interface GenericIdentification {
  identification: string;
  scheme_name: string;
  issuer?: string;
}

/** An account's primary identifier: an IBAN, or only `other` (a card's masked number, say). */
export interface AccountIdentification {
  iban?: string;
  other?: GenericIdentification;
}

export interface PartyIdentification {
  name?: string;
}

export interface ExchangeRate {
  unit_currency?: string;
  exchange_rate?: string;
  rate_type?: 'SPOT' | 'SALE' | 'AGRD';
  contract_identification?: string;
  /** The original amount of a purchase in another currency; never the account's amount. */
  instructed_amount?: AmountType;
}

/** A transaction as published, less `transaction_id`, which the fake makes anew on every read. */
export interface FakeTransaction {
  entry_reference?: string;
  merchant_category_code?: string;
  /** Always positive: `credit_debit_indicator` gives the direction. */
  transaction_amount: AmountType;
  creditor?: PartyIdentification;
  creditor_account?: AccountIdentification;
  debtor?: PartyIdentification;
  debtor_account?: AccountIdentification;
  bank_transaction_code?: { description?: string; code?: string; sub_code?: string };
  credit_debit_indicator: 'CRDT' | 'DBIT';
  status: 'BOOK' | 'CNCL' | 'HOLD' | 'OTHR' | 'PDNG' | 'RJCT' | 'SCHD';
  booking_date?: string;
  value_date?: string;
  transaction_date?: string;
  balance_after_transaction?: AmountType;
  reference_number?: string;
  reference_number_schema?: string;
  remittance_information?: string[];
  exchange_rate?: ExchangeRate;
  note?: string;
}

export interface FakeBalance {
  name: string;
  balance_amount: AmountType;
  balance_type: 'CLAV' | 'CLBD' | 'FWAV' | 'INFO' | 'ITAV' | 'ITBD' | 'OPAV' | 'OPBD' | 'PRCD' | 'OTHR' | 'VALU' | 'XPCD';
  reference_date?: string;
  last_change_date_time?: string;
  last_committed_transaction?: string;
}

export interface FakeAccount {
  /** The tests' name for the account, unique in a data set; never sent. */
  key: string;
  account_id: AccountIdentification;
  all_account_ids?: GenericIdentification[];
  name?: string;
  details?: string;
  usage?: 'PRIV' | 'ORGA';
  cash_account_type: 'CACC' | 'CASH' | 'CARD' | 'LOAN' | 'SVGS' | 'OTHR';
  product?: string;
  currency: string;
  psu_status?: string;
  credit_limit?: AmountType;
  /** The PSU types whose consent includes the account; every type of its bank when absent. */
  psuTypes?: PsuType[];
  balances: FakeBalance[];
  /** In the order pages serve them. */
  transactions: FakeTransaction[];
  /** Pages (0-based) served empty but still carrying a continuation_key; never the last page. */
  emptyPages?: number[];
}

export interface FakeAuthMethod {
  name?: string;
  title?: string;
  psu_type: PsuType;
  approach: 'REDIRECT' | 'DECOUPLED' | 'EMBEDDED';
  hidden_method: boolean;
  credentials?: { name: string; title: string; required: boolean; description?: string; template?: string }[];
}

export interface FakeBank {
  name: string;
  /** Two-letter ISO 3166 code. */
  country: string;
  /** Served by the fake itself when absent. */
  logo?: string;
  psu_types: PsuType[];
  auth_methods: FakeAuthMethod[];
  /** Seconds. */
  maximum_consent_validity: number;
  bic?: string;
  /** Data requests send all of these or no PSU header at all. */
  required_psu_headers: string[];
  beta: boolean;
  sandbox?: { users: { username?: string; password?: string; otp?: string }[] };
  group?: { name: string; logo: string };
  accounts: FakeAccount[];
}

export interface EnableBankingDataSet {
  banks: FakeBank[];
}

const DAY = 86_400;

/** The UTC day of an epoch second, as YYYY-MM-DD. */
export function isoDate(epochSeconds: number): string {
  return new Date(epochSeconds * 1000).toISOString().slice(0, 10);
}

/**
 * The default data set, dated relative to `now` (epoch seconds) so that a connector asking for recent days finds it:
 * a Finnish bank (EUR; personal and business) with a checking account, a card known only by its masked number and a
 * business account, and a Swedish bank (SEK) with a savings account. The checking account spans four pages at the
 * default page size of three, the second of them empty; pending items carry neither booking_date nor
 * entry_reference; one card purchase was made in US dollars.
 */
export function defaultDataSet(now: number): EnableBankingDataSet {
  const day = (daysAgo: number) => isoDate(now - daysAgo * DAY);
  const today = day(0);
  const changed = new Date((now - 3600) * 1000).toISOString();
  const eur = (amount: string): AmountType => ({ currency: 'EUR', amount });
  const sek = (amount: string): AmountType => ({ currency: 'SEK', amount });
  const booked = (daysAgo: number) => ({ status: 'BOOK' as const, booking_date: day(daysAgo), value_date: day(daysAgo), transaction_date: day(daysAgo + 1) });
  const cardPayment = { description: 'Card payment', code: 'CCRD', sub_code: 'POSD' };

  const checking: FakeAccount = {
    key: 'fi-checking',
    account_id: { iban: 'FI294711220000012345' },
    all_account_ids: [{ identification: '47112200012345', scheme_name: 'BBAN' }],
    name: 'Aino Virtanen',
    details: 'Everyday account',
    usage: 'PRIV',
    cash_account_type: 'CACC',
    product: 'Aurora Käyttötili',
    currency: 'EUR',
    psuTypes: ['personal'],
    balances: [
      { name: 'Booked balance', balance_amount: eur('2143.57'), balance_type: 'CLBD', reference_date: today, last_change_date_time: changed },
      { name: 'Available balance', balance_amount: eur('2116.17'), balance_type: 'ITAV', reference_date: today, last_change_date_time: changed },
    ],
    transactions: [
      {
        entry_reference: 'AUR-CHK-0009',
        transaction_amount: eur('3200.00'),
        credit_debit_indicator: 'CRDT',
        ...booked(20),
        debtor: { name: 'Revontuli Oy' },
        debtor_account: { iban: 'FI314711220000067890' },
        remittance_information: ['SALARY'],
        bank_transaction_code: { description: 'Salary', code: 'RCDT', sub_code: 'SALA' },
      },
      {
        entry_reference: 'AUR-CHK-0008',
        transaction_amount: eur('950.00'),
        credit_debit_indicator: 'DBIT',
        ...booked(18),
        creditor: { name: 'Asunto Oy Kuusikko' },
        creditor_account: { iban: 'FI5542345670000081' },
        reference_number: 'RF18539007547034',
        reference_number_schema: 'INTL',
        remittance_information: ['RF18539007547034', 'Rent'],
        bank_transaction_code: { description: 'Credit transfer', code: 'ICDT', sub_code: 'ESCT' },
      },
      {
        entry_reference: 'AUR-CHK-0007',
        merchant_category_code: '5411',
        transaction_amount: eur('54.30'),
        credit_debit_indicator: 'DBIT',
        ...booked(15),
        creditor: { name: 'K-Market Kallio' },
        remittance_information: ['K-MARKET KALLIO HELSINKI'],
        bank_transaction_code: cardPayment,
      },
      {
        entry_reference: 'AUR-CHK-0006',
        transaction_amount: eur('48.90'),
        credit_debit_indicator: 'DBIT',
        ...booked(12),
        creditor: { name: 'Helen Oy' },
        remittance_information: ['Electricity'],
        bank_transaction_code: { description: 'Direct debit', code: 'IDDT', sub_code: 'ESDD' },
      },
      {
        entry_reference: 'AUR-CHK-0005',
        transaction_amount: eur('19.99'),
        credit_debit_indicator: 'CRDT',
        ...booked(10),
        debtor: { name: 'Verkkokauppa.com Oyj' },
        remittance_information: ['Refund order 448812'],
      },
      {
        entry_reference: 'AUR-CHK-0004',
        transaction_amount: eur('200.00'),
        credit_debit_indicator: 'DBIT',
        ...booked(7),
        creditor: { name: 'Aino Virtanen' },
        remittance_information: ['Transfer to savings'],
        note: 'Holiday fund',
      },
      {
        entry_reference: 'AUR-CHK-0003',
        merchant_category_code: '5812',
        transaction_amount: eur('23.50'),
        credit_debit_indicator: 'DBIT',
        ...booked(4),
        creditor: { name: 'Ravintola Sävel' },
        remittance_information: ['RAVINTOLA SAVEL HELSINKI'],
        bank_transaction_code: cardPayment,
      },
      {
        transaction_amount: eur('12.40'),
        credit_debit_indicator: 'DBIT',
        status: 'PDNG',
        transaction_date: day(1),
        creditor: { name: 'R-Kioski' },
        remittance_information: ['R-KIOSKI RAUTATIENTORI'],
        merchant_category_code: '5994',
      },
      {
        transaction_amount: eur('15.00'),
        credit_debit_indicator: 'CRDT',
        status: 'PDNG',
        transaction_date: day(0),
        value_date: day(0),
        debtor: { name: 'Matti Meikäläinen' },
        remittance_information: ['MobilePay: lunch'],
      },
    ],
    emptyPages: [1],
  };

  const card: FakeAccount = {
    key: 'fi-card',
    account_id: { other: { identification: '5413 33** **** 4242', scheme_name: 'CPAN' } },
    name: 'Aino Virtanen',
    details: 'Aurora Credit',
    usage: 'PRIV',
    cash_account_type: 'CARD',
    product: 'Aurora Credit Mastercard',
    currency: 'EUR',
    credit_limit: eur('3000.00'),
    psuTypes: ['personal'],
    balances: [
      { name: 'Booked balance', balance_amount: eur('-134.87'), balance_type: 'CLBD', reference_date: today, last_change_date_time: changed },
      { name: 'Expected balance', balance_amount: eur('-142.77'), balance_type: 'XPCD', reference_date: today, last_change_date_time: changed },
    ],
    transactions: [
      {
        entry_reference: 'AUR-CRD-0003',
        transaction_amount: eur('500.00'),
        credit_debit_indicator: 'CRDT',
        ...booked(25),
        remittance_information: ['Payment, thank you'],
      },
      {
        entry_reference: 'AUR-CRD-0002',
        merchant_category_code: '4511',
        transaction_amount: eur('89.00'),
        credit_debit_indicator: 'DBIT',
        ...booked(9),
        creditor: { name: 'Finnair' },
        remittance_information: ['FINNAIR HELSINKI-VANTAA'],
        bank_transaction_code: cardPayment,
      },
      {
        entry_reference: 'AUR-CRD-0001',
        merchant_category_code: '5942',
        transaction_amount: eur('45.87'),
        credit_debit_indicator: 'DBIT',
        ...booked(3),
        creditor: { name: 'AMAZON.COM' },
        remittance_information: ['AMAZON.COM SEATTLE WA'],
        bank_transaction_code: cardPayment,
        exchange_rate: { unit_currency: 'USD', exchange_rate: '0.9174', rate_type: 'SALE', instructed_amount: { currency: 'USD', amount: '50.00' } },
      },
      {
        merchant_category_code: '5815',
        transaction_amount: eur('7.90'),
        credit_debit_indicator: 'DBIT',
        status: 'PDNG',
        transaction_date: day(1),
        creditor: { name: 'Spotify' },
        remittance_information: ['SPOTIFY STOCKHOLM'],
      },
    ],
  };

  const business: FakeAccount = {
    key: 'fi-business',
    account_id: { iban: 'FI314711220000067890' },
    name: 'Revontuli Oy',
    details: 'Business account',
    usage: 'ORGA',
    cash_account_type: 'CACC',
    product: 'Aurora Yritystili',
    currency: 'EUR',
    psuTypes: ['business'],
    balances: [{ name: 'Booked balance', balance_amount: eur('18250.00'), balance_type: 'CLBD', reference_date: today, last_change_date_time: changed }],
    transactions: [
      {
        entry_reference: 'AUR-BUS-0002',
        transaction_amount: eur('3200.00'),
        credit_debit_indicator: 'DBIT',
        ...booked(20),
        creditor: { name: 'Aino Virtanen' },
        remittance_information: ['SALARY'],
      },
      {
        entry_reference: 'AUR-BUS-0001',
        transaction_amount: eur('12400.00'),
        credit_debit_indicator: 'CRDT',
        ...booked(6),
        debtor: { name: 'Pohjoistuote Ab' },
        remittance_information: ['Invoice 2041'],
      },
    ],
  };

  const savings: FakeAccount = {
    key: 'se-savings',
    account_id: { iban: 'SE2195000000091234567890' },
    all_account_ids: [{ identification: '9500-0009123456789', scheme_name: 'BBAN' }],
    name: 'Aino Virtanen',
    details: 'Sparkonto',
    usage: 'PRIV',
    cash_account_type: 'SVGS',
    product: 'Fjäll Sparkonto',
    currency: 'SEK',
    psuTypes: ['personal'],
    balances: [
      { name: 'Interim booked balance', balance_amount: sek('48512.37'), balance_type: 'ITBD', reference_date: today, last_change_date_time: changed },
      { name: 'Closing available balance', balance_amount: sek('48512.37'), balance_type: 'CLAV', reference_date: today },
    ],
    transactions: [
      {
        entry_reference: '5561990681',
        transaction_amount: sek('1500.00'),
        credit_debit_indicator: 'CRDT',
        ...booked(27),
        remittance_information: ['Månadssparande'],
      },
      {
        entry_reference: '5561990682',
        transaction_amount: sek('2000.00'),
        credit_debit_indicator: 'DBIT',
        ...booked(11),
        remittance_information: ['Uttag'],
      },
      {
        entry_reference: '5561990683',
        transaction_amount: sek('12.37'),
        credit_debit_indicator: 'CRDT',
        ...booked(2),
        remittance_information: ['Ränta'],
        bank_transaction_code: { description: 'Interest', code: 'INTR' },
      },
    ],
  };

  return {
    banks: [
      {
        name: 'Aurora Pankki',
        country: 'FI',
        psu_types: ['personal', 'business'],
        auth_methods: [
          { name: 'redirect', title: 'Online banking', psu_type: 'personal', approach: 'REDIRECT', hidden_method: false },
          {
            name: 'redirect-business',
            title: 'Corporate online banking',
            psu_type: 'business',
            approach: 'REDIRECT',
            hidden_method: false,
            credentials: [{ name: 'companyId', title: 'Company ID', required: true, description: 'Business ID in 1234567-8 format', template: '^\\d{7}-\\d$' }],
          },
        ],
        maximum_consent_validity: 180 * DAY,
        bic: 'AURAFIHH',
        required_psu_headers: ['Psu-Ip-Address', 'Psu-User-Agent'],
        beta: false,
        sandbox: { users: [{ username: 'aino', password: 'sandbox', otp: '123456' }] },
        accounts: [checking, card, business],
      },
      {
        name: 'Fjäll Sparbank',
        country: 'SE',
        psu_types: ['personal'],
        auth_methods: [{ name: 'bankid', title: 'BankID', psu_type: 'personal', approach: 'DECOUPLED', hidden_method: false }],
        maximum_consent_validity: 90 * DAY,
        bic: 'FJALSESS',
        required_psu_headers: ['Psu-Ip-Address'],
        beta: true,
        sandbox: { users: [{ username: '199001019802' }] },
        accounts: [savings],
      },
    ],
  };
}
