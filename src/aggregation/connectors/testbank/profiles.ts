/**
 * The test profiles. Username = password unless a profile says otherwise; docs/test-profiles.md documents
 * every one (a unit test checks that the two agree).
 */
import type { MfaQuestionSpec, ProfileSpec } from './profile-spec.js';

/** Checking, savings and a rewards card: the accounts of the MFA and refresh-failure profiles. */
function everydayBanking(
  owner: ProfileSpec['owner'],
  payer: string,
  net: number,
  rent: number,
): Pick<ProfileSpec, 'owner' | 'accounts' | 'income' | 'bills' | 'transfers'> {
  // What a month with two paydays leaves for the debit card after rent, bills, the card, savings and cash.
  const typical = Math.round(2 * net - rent - 1350);
  return {
    owner,
    accounts: [
      { key: 'chk', type: 'checking', name: 'Everyday Checking', nickname: 'Checking', level: 3600, apy: 0.01, atm: 1, spend: { mix: 'everyday', typical } },
      { key: 'sav', type: 'savings', name: 'High Yield Savings', nickname: 'Rainy day', level: 5200, apy: 3.9, cycleMonth: 8, sweepTo: 'chk' },
      { key: 'card', type: 'creditCard', name: 'FinBank Cash Rewards Visa', nickname: 'Visa', level: 900, limit: 6000, apr: 23.49, payFrom: 'chk', payDay: 24, pay: 'full', mix: 'everyday', cashBack: 0.015 },
    ],
    income: [{ key: 'pay', to: 'chk', payer, kind: 'payroll', net, schedule: 'biweekly', anchor: '2025-01-10' }],
    bills: [
      { from: 'chk', merchant: 'rent', amount: rent, day: 1 },
      { from: 'chk', merchant: 'electric', amount: 80, vary: 0.12, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'tmobile', amount: 65, day: 21 },
      { from: 'card', merchant: 'netflix', amount: 15.49, day: 9 },
      { from: 'card', merchant: 'spotify', amount: 11.99, day: 14 },
    ],
    transfers: [{ from: 'chk', to: 'sav', amount: 200, day: 2 }],
  };
}

const PASSCODE: MfaQuestionSpec = {
  id: 'otp',
  kind: 'text',
  prompt: 'Enter the 6-digit code we sent to your phone ending in 0199.',
  answer: '123456',
};

/** The question every profile without its own MFA is asked at the always-MFA institution. */
export const ALWAYS_MFA_ROUND: readonly MfaQuestionSpec[] = [PASSCODE];

const PROFILES: ProfileSpec[] = [
  {
    id: 'profile_01',
    summary: 'A single renter: checking and savings.',
    owner: { name: 'Alex Morgan', city: 'PORTLAND', state: 'OR' },
    accounts: [
      { key: 'chk', type: 'checking', name: 'Everyday Checking', nickname: 'Main checking', level: 3200, apy: 0.01, atm: 2, fee: { amount: 10, waiveAbove: 2700 }, spend: { mix: 'everyday', typical: 1700 } },
      { key: 'sav', type: 'savings', name: 'High Yield Savings', nickname: 'Savings', level: 6000, apy: 4, cycleMonth: 7, sweepTo: 'chk' },
    ],
    income: [{ key: 'pay', to: 'chk', payer: 'Northwind Logistics', kind: 'payroll', net: 1850, schedule: 'biweekly', anchor: '2025-01-03' }],
    bills: [
      { from: 'chk', merchant: 'rent', amount: 1450, day: 1 },
      { from: 'chk', merchant: 'electric', amount: 85, vary: 0.15, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'comcast', amount: 65, day: 18 },
      { from: 'chk', merchant: 'verizon', amount: 72, day: 22 },
      { from: 'chk', merchant: 'netflix', amount: 15.49, day: 9 },
      { from: 'chk', merchant: 'spotify', amount: 11.99, day: 14 },
      { from: 'chk', merchant: 'geico', amount: 118, day: 20 },
      { from: 'chk', merchant: 'planet_fitness', amount: 24.99, day: 17 },
    ],
    transfers: [{ from: 'chk', to: 'sav', amount: 250, day: 2 }],
  },
  {
    id: 'profile_02',
    summary: 'One account of every type, every detail field filled, investment positions.',
    owner: { name: 'Jordan Lee', city: 'DENVER', state: 'CO' },
    accounts: [
      { key: 'chk', type: 'checking', name: 'Premier Checking', nickname: 'Checking', level: 10000, apy: 0.05, atm: 1, spend: { mix: 'everyday', typical: 2600 } },
      { key: 'sav', type: 'savings', name: 'Premier Savings', nickname: 'Emergency fund', level: 15000, apy: 4.1, cycleMonth: 11, sweepTo: 'chk' },
      { key: 'card', type: 'creditCard', name: 'FinBank Signature Visa', nickname: 'Visa Signature', level: 2200, limit: 15000, apr: 21.99, payFrom: 'chk', payDay: 22, pay: 'full', mix: 'everyday', annualFee: 95, feeMonth: 3, cashBack: 0.015 },
      {
        key: 'student', type: 'loan', name: 'Graduate Student Loan', nickname: 'Student loan', principal: 38000, rate: 5.5, termMonths: 120, start: '2021-09',
        payFrom: 'chk', payDay: 10, lender: 'FinBank Student Lending', collateral: 'Unsecured', category: 'Student Loan', termType: '120 months fixed',
        school: { original: 'University of Colorado Boulder', current: 'University of Denver' },
      },
      {
        key: 'mortgage', type: 'mortgage', name: '30 Year Fixed Mortgage', nickname: 'House', principal: 420000, rate: 6.125, termMonths: 360, start: '2023-05',
        payFrom: 'chk', payDay: 1, escrow: 520, lender: 'FinBank Home Lending', collateral: '1458 Aspen Ridge Dr, Denver CO 80211', category: 'Mortgage & Rent', termType: '30 year fixed',
      },
      { key: 'heloc', type: 'lineOfCredit', name: 'Home Equity Line of Credit', nickname: 'HELOC', level: 18000, swing: 0.06, limit: 50000, apr: 8.75, payFrom: 'chk', payDay: 20 },
      {
        key: 'brokerage', type: 'investment', name: 'Individual Brokerage', nickname: 'Brokerage', opened: '2019-04', cash: 1800, reinvest: false,
        marginAllowed: true, checkWriting: true, optionTrading: true,
        holdings: [
          { symbol: 'VTI', weight: 50, units: 120 },
          { symbol: 'VXUS', weight: 20, units: 300 },
          { symbol: 'AAPL', weight: 15, units: 40 },
          { symbol: 'MSFT', weight: 15, units: 25 },
          { symbol: '91282CJZ5', weight: 0, units: 50 },
        ],
      },
      {
        key: '401k', type: 'investmentTaxDeferred', name: 'Contoso Health 401(k) Plan', nickname: '401k', opened: '2018-02', cash: 0, reinvest: true, rollover: 25000,
        holdings: [
          { symbol: 'VFIAX', weight: 60, units: 95 },
          { symbol: 'VTIAX', weight: 25, units: 900 },
          { symbol: 'BND', weight: 10, units: 250 },
          { symbol: 'VMFXX', weight: 5, units: 2000 },
        ],
        planLoan: { principal: 15000, rate: 7.5, termMonths: 60, start: '2024-03', to: 'chk' },
      },
      {
        key: 'roth', type: 'roth', name: 'Roth IRA', nickname: 'Roth', opened: '2020-01', cash: 150, reinvest: true,
        holdings: [
          { symbol: 'FXAIX', weight: 70, units: 110 },
          { symbol: 'VTSAX', weight: 30, units: 60 },
          { symbol: 'SPAXX', weight: 0, units: 500 },
        ],
      },
    ],
    income: [{
      key: 'pay', to: 'chk', payer: 'Contoso Health', kind: 'payroll', net: 5400, schedule: 'semimonthly', bonus: { month: 3, amount: 6000 },
      deferral: { to: '401k', gross: 8200, percent: 8, matchPercent: 4 },
    }],
    bills: [
      { from: 'chk', merchant: 'electric', amount: 140, vary: 0.12, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'gas_utility', amount: 70, vary: 0.1, seasonal: true, day: 14 },
      { from: 'chk', merchant: 'water', amount: 55, vary: 0.08, day: 16 },
      { from: 'chk', merchant: 'comcast', amount: 80, day: 18 },
      { from: 'chk', merchant: 'tmobile', amount: 95, day: 21 },
      { from: 'chk', merchant: 'geico', amount: 135, day: 25 },
      { from: 'card', merchant: 'netflix', amount: 22.99, day: 9 },
      { from: 'card', merchant: 'spotify', amount: 11.99, day: 14 },
      { from: 'card', merchant: 'nytimes', amount: 17, day: 3 },
      { from: 'card', merchant: 'icloud', amount: 2.99, day: 27 },
    ],
    transfers: [
      { from: 'chk', to: 'sav', amount: 400, day: 2 },
      { from: 'chk', to: 'brokerage', amount: 500, day: 5 },
      { from: 'chk', to: 'roth', amount: 500, day: 6 },
    ],
  },
  {
    id: 'profile_03',
    summary: 'A typical household: two earners, joint checking, savings, two credit cards, car loan, mortgage, 401(k).',
    owner: { name: 'Sam and Taylor Rivera', city: 'COLUMBUS', state: 'OH' },
    accounts: [
      { key: 'chk', type: 'checking', name: 'Joint Checking', nickname: 'Household checking', level: 5500, apy: 0.01, atm: 2, spend: { mix: 'everyday', typical: 1000 } },
      { key: 'sav', type: 'savings', name: 'Family Savings', nickname: 'Savings', level: 9000, apy: 3.8, cycleMonth: 6, sweepTo: 'chk' },
      { key: 'rewards', type: 'creditCard', name: 'FinBank Cash Rewards Visa', nickname: 'Rewards card', level: 1900, limit: 12000, apr: 22.49, payFrom: 'chk', payDay: 24, pay: 'full', mix: 'everyday', cashBack: 0.02 },
      { key: 'store', type: 'creditCard', name: 'FinBank Platinum Mastercard', nickname: 'Platinum', level: 3000, swing: 0.1, limit: 7500, apr: 24.99, payFrom: 'chk', payDay: 15, pay: 0.25, mix: 'everyday' },
      {
        key: 'auto', type: 'loan', name: 'Auto Loan', nickname: 'Honda', principal: 32000, rate: 6.9, termMonths: 72, start: '2023-10', payFrom: 'chk', payDay: 7,
        lender: 'FinBank Auto Finance', collateral: '2023 Honda CR-V EX VIN 5J6RS4H51PL004217', category: 'Auto Payment', termType: '72 months fixed',
      },
      {
        key: 'mortgage', type: 'mortgage', name: '30 Year Fixed Mortgage', nickname: 'Home', principal: 280000, rate: 6.5, termMonths: 360, start: '2022-08', payFrom: 'chk', payDay: 1,
        escrow: 430, lender: 'FinBank Home Lending', collateral: '782 Willow Creek Rd, Columbus OH 43214', category: 'Mortgage & Rent', termType: '30 year fixed',
      },
      {
        key: '401k', type: 'investmentTaxDeferred', name: 'Fabrikam 401(k) Savings Plan', nickname: '401k', opened: '2016-09', cash: 0, reinvest: true,
        holdings: [
          { symbol: 'VFIAX', weight: 70, units: 60 },
          { symbol: 'BND', weight: 20, units: 180 },
          { symbol: 'VTIAX', weight: 10, units: 400 },
        ],
      },
    ],
    income: [
      { key: 'pay1', to: 'chk', payer: 'Fabrikam Inc', kind: 'payroll', net: 2300, schedule: 'biweekly', anchor: '2025-01-03', deferral: { to: '401k', gross: 3200, percent: 6, matchPercent: 3 } },
      { key: 'pay2', to: 'chk', payer: 'Lakeview School District', kind: 'payroll', net: 2050, schedule: 'biweekly', anchor: '2025-01-10' },
    ],
    bills: [
      { from: 'chk', merchant: 'electric', amount: 150, vary: 0.12, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'gas_utility', amount: 90, vary: 0.1, seasonal: true, day: 14 },
      { from: 'chk', merchant: 'water', amount: 60, vary: 0.08, day: 16 },
      { from: 'chk', merchant: 'comcast', amount: 90, day: 18 },
      { from: 'chk', merchant: 'verizon', amount: 160, day: 22 },
      { from: 'chk', merchant: 'geico', amount: 165, day: 26 },
      { from: 'chk', merchant: 'daycare', amount: 950, day: 3 },
      { from: 'chk', merchant: 'life_insurance', amount: 45, day: 28 },
      { from: 'chk', merchant: 'red_cross', amount: 25, day: 15 },
      { from: 'rewards', merchant: 'netflix', amount: 15.49, day: 9 },
      { from: 'rewards', merchant: 'disney', amount: 13.99, day: 11 },
      { from: 'rewards', merchant: 'spotify', amount: 16.99, day: 14 },
    ],
    transfers: [{ from: 'chk', to: 'sav', amount: 400, day: 2 }],
  },
  {
    id: 'profile_04',
    summary: 'A heavy user: a consultant with a side business, four cards, over 20,000 transactions in two years.',
    owner: { name: 'Casey Nguyen', city: 'SAN FRANCISCO', state: 'CA' },
    accounts: [
      { key: 'chk', type: 'checking', name: 'Everyday Checking', nickname: 'Personal', level: 16000, apy: 0.01, atm: 4, spend: { mix: 'heavy', typical: 1600 } },
      { key: 'sav', type: 'savings', name: 'High Yield Savings', nickname: 'Savings', level: 25000, apy: 4.2, cycleMonth: 12, sweepTo: 'chk' },
      { key: 'card1', type: 'creditCard', name: 'FinBank Sapphire Visa', nickname: 'Daily card', level: 8000, limit: 25000, apr: 20.99, payFrom: 'chk', payDay: 21, pay: 'full', mix: 'heavy', annualFee: 95, feeMonth: 6, cashBack: 0.02 },
      { key: 'card2', type: 'creditCard', name: 'FinBank Cash Rewards Visa', nickname: 'Groceries card', level: 4800, limit: 15000, apr: 22.49, payFrom: 'chk', payDay: 25, pay: 'full', mix: 'heavy', cashBack: 0.015 },
      { key: 'card3', type: 'creditCard', name: 'FinBank Platinum Mastercard', nickname: 'Backup card', level: 3300, limit: 10000, apr: 24.99, payFrom: 'chk', payDay: 17, pay: 'full', mix: 'heavy' },
      { key: 'biz', type: 'checking', name: 'Business Checking', nickname: 'Nguyen Studio', segment: 'business', level: 15000, atm: 0, spend: { mix: 'business', typical: 4000 } },
      { key: 'bizcard', type: 'creditCard', name: 'FinBank Business Visa', nickname: 'Studio card', segment: 'business', level: 3000, limit: 20000, apr: 19.99, payFrom: 'biz', payDay: 18, pay: 'full', mix: 'business', cashBack: 0.015 },
    ],
    income: [
      { key: 'pay', to: 'chk', payer: 'Blue Yonder Consulting', kind: 'payroll', net: 10300, schedule: 'semimonthly' },
      { key: 'sales', to: 'biz', payer: 'Stripe', kind: 'payouts', net: 650, schedule: 'businessDays' },
    ],
    bills: [
      { from: 'chk', merchant: 'rent', amount: 3900, day: 1 },
      { from: 'chk', merchant: 'electric', amount: 95, vary: 0.15, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'comcast', amount: 85, day: 18 },
      { from: 'chk', merchant: 'verizon', amount: 95, day: 22 },
      { from: 'card1', merchant: 'netflix', amount: 22.99, day: 9 },
      { from: 'card1', merchant: 'spotify', amount: 11.99, day: 14 },
      { from: 'card1', merchant: 'hulu', amount: 17.99, day: 16 },
      { from: 'card2', merchant: 'nytimes', amount: 17, day: 4 },
      { from: 'card3', merchant: 'icloud', amount: 9.99, day: 27 },
      { from: 'card3', merchant: 'planet_fitness', amount: 24.99, day: 17 },
      { from: 'biz', merchant: 'rent_office', amount: 2200, day: 1 },
      { from: 'biz', merchant: 'quickbooks', amount: 90, day: 8 },
      { from: 'biz', merchant: 'square_fees', amount: 110, day: 2 },
      { from: 'biz', merchant: 'irs', amount: 4500, day: 15, every: 3, start: 1 },
      { from: 'bizcard', merchant: 'adobe', amount: 59.99, day: 6 },
    ],
    transfers: [
      { from: 'chk', to: 'sav', amount: 1000, day: 2 },
      { from: 'biz', to: 'chk', amount: 3000, day: 28 },
    ],
  },
  {
    id: 'mfa_text',
    summary: 'Asks a text security question after the password.',
    ...everydayBanking({ name: 'Riley Carter', city: 'AUSTIN', state: 'TX' }, 'Tailspin Toys', 1700, 1250),
    mfa: [[{ id: 'pet', kind: 'text', prompt: 'What is the name of your first pet?', answer: 'rex' }]],
  },
  {
    id: 'mfa_choice',
    summary: 'Asks a multiple-choice security question after the password.',
    ...everydayBanking({ name: 'Morgan Patel', city: 'CHICAGO', state: 'IL' }, 'Wide World Importers', 1900, 1500),
    mfa: [[{
      id: 'street', kind: 'choice', prompt: 'Which of these streets have you lived on?', answer: 'oak',
      options: [
        { value: 'maple', label: 'Maple Avenue' },
        { value: 'oak', label: 'Oak Street' },
        { value: 'pine', label: 'Pine Road' },
        { value: 'cedar', label: 'Cedar Lane' },
      ],
    }]],
  },
  {
    id: 'mfa_image',
    summary: 'Shows a security image and asks which picture it is.',
    ...everydayBanking({ name: 'Jamie Brooks', city: 'ATLANTA', state: 'GA' }, 'Adventure Works', 1800, 1350),
    mfa: [[{
      id: 'picture', kind: 'image', prompt: 'Which picture did you choose as your security image?', answer: 'sun', picture: 'sun',
      options: [
        { value: 'sun', label: 'Sun' },
        { value: 'anchor', label: 'Anchor' },
        { value: 'tree', label: 'Tree' },
        { value: 'house', label: 'House' },
      ],
    }]],
  },
  {
    id: 'mfa_multi',
    summary: 'Two MFA rounds: a text question, then a choice and a text question together.',
    ...everydayBanking({ name: 'Avery Kim', city: 'BOSTON', state: 'MA' }, 'Litware Inc', 2100, 1700),
    mfa: [
      [{ id: 'city', kind: 'text', prompt: 'In what city were you born?', answer: 'springfield' }],
      [
        {
          id: 'color', kind: 'choice', prompt: 'What was the colour of your first car?', answer: 'blue',
          options: [
            { value: 'red', label: 'Red' },
            { value: 'blue', label: 'Blue' },
            { value: 'silver', label: 'Silver' },
            { value: 'black', label: 'Black' },
          ],
        },
        { id: 'phone', kind: 'text', prompt: 'Enter the last four digits of your phone number.', answer: '0199' },
      ],
    ],
  },
  {
    id: 'mfa_refresh',
    summary: 'Asks a text question; the remembered device expires after 24 hours, so later refreshes end in 185.',
    ...everydayBanking({ name: 'Quinn Foster', city: 'NASHVILLE', state: 'TN' }, 'Proseware Inc', 1750, 1300),
    mfa: [[{ id: 'teacher', kind: 'text', prompt: 'What was the last name of your favourite teacher?', answer: 'smith' }]],
    refreshFailure: { code: 185, afterSeconds: 86_400, message: 'Your institution needs you to answer a security question again.' },
  },
  {
    id: 'error_102',
    summary: 'Sign-in always ends in 102: the institution site is unavailable.',
    owner: { name: 'Test Error', city: 'DALLAS', state: 'TX' },
    signInFailure: { code: 102, message: 'The institution is not responding. Try again later.' },
    accounts: [], income: [], bills: [], transfers: [],
  },
  {
    id: 'error_108',
    summary: 'Sign-in always ends in 108: the user must act at the institution first.',
    owner: { name: 'Test Error', city: 'DALLAS', state: 'TX' },
    signInFailure: { code: 108, message: 'Sign in to the institution website and accept the updated terms and conditions.' },
    accounts: [], income: [], bills: [], transfers: [],
  },
  {
    id: 'error_109',
    summary: 'Sign-in always ends in 109: the institution requires a new password.',
    owner: { name: 'Test Error', city: 'DALLAS', state: 'TX' },
    signInFailure: { code: 109, message: 'Your password has expired. Change it on the institution website.' },
    accounts: [], income: [], bills: [], transfers: [],
  },
  {
    id: 'refresh_103',
    summary: 'Signs in; refreshes more than 24 hours after the last sign-in end in 103 until the user signs in again (Connect Fix).',
    ...everydayBanking({ name: 'Drew Hayes', city: 'PHOENIX', state: 'AZ' }, 'Trey Research', 1650, 1200),
    refreshFailure: { code: 103, afterSeconds: 86_400, message: 'The institution rejected the saved credentials. Sign in again.' },
  },
  {
    id: 'refresh_108',
    summary: 'Signs in; refreshes more than 24 hours after the last sign-in end in 108 until the user signs in again (Connect Fix).',
    ...everydayBanking({ name: 'Emerson Price', city: 'MIAMI', state: 'FL' }, 'Coho Winery', 1600, 1150),
    refreshFailure: { code: 108, afterSeconds: 86_400, message: 'Sign in to the institution website to review a notice, then reconnect.' },
  },
  {
    id: 'student',
    summary: 'A student with one credit card, paid from an account at another bank.',
    owner: { name: 'Taylor Brooks', city: 'ANN ARBOR', state: 'MI' },
    accounts: [
      { key: 'card', type: 'creditCard', name: 'FinBank Student Visa', nickname: 'Student card', level: 520, swing: 0.35, limit: 1500, apr: 25.99, payDay: 20, pay: 'full', mix: 'student' },
    ],
    income: [],
    bills: [
      { from: 'card', merchant: 'spotify', amount: 5.99, day: 14 },
      { from: 'card', merchant: 'icloud', amount: 0.99, day: 27 },
    ],
    transfers: [],
  },
  {
    id: 'small_business',
    summary: 'A small business (marketSegment business): operating account, reserve savings, business card, equipment loan.',
    owner: { name: 'Harbor Street Cafe LLC', city: 'SEATTLE', state: 'WA' },
    accounts: [
      { key: 'ops', type: 'checking', name: 'Business Checking', nickname: 'Operating', segment: 'business', level: 22000, swing: 0.25, fee: { amount: 25, waiveAbove: 20000 }, spend: { mix: 'business', typical: 10000 } },
      { key: 'reserve', type: 'savings', name: 'Business Savings', nickname: 'Tax reserve', segment: 'business', level: 12000, apy: 2.5, cycleMonth: 4, sweepTo: 'ops' },
      { key: 'card', type: 'creditCard', name: 'FinBank Business Visa', nickname: 'Supplies card', segment: 'business', level: 4200, limit: 25000, apr: 19.99, payFrom: 'ops', payDay: 18, pay: 'full', mix: 'business', cashBack: 0.015 },
      {
        key: 'equipment', type: 'loan', name: 'Equipment Loan', nickname: 'Espresso machines', segment: 'business', principal: 48000, rate: 8.25, termMonths: 60, start: '2024-06',
        payFrom: 'ops', payDay: 12, lender: 'FinBank Business Lending', collateral: 'La Marzocco Linea PB espresso machines (2)', category: 'Loan Payment', termType: '60 months fixed',
      },
    ],
    income: [{ key: 'sales', to: 'ops', payer: 'Square', kind: 'payouts', net: 1150, schedule: 'businessDays' }],
    bills: [
      { from: 'ops', merchant: 'rent_office', amount: 5200, day: 1 },
      { from: 'ops', merchant: 'electric', amount: 640, vary: 0.12, seasonal: true, day: 12 },
      { from: 'ops', merchant: 'water', amount: 180, vary: 0.1, day: 16 },
      { from: 'ops', merchant: 'comcast', amount: 120, day: 18 },
      { from: 'ops', merchant: 'quickbooks', amount: 90, day: 8 },
      { from: 'ops', merchant: 'square_fees', amount: 60, day: 3 },
      { from: 'ops', merchant: 'state_farm', amount: 310, day: 20 },
      { from: 'ops', merchant: 'irs', amount: 6500, day: 15, every: 3, start: 1 },
      { from: 'card', merchant: 'adobe', amount: 59.99, day: 6 },
    ],
    transfers: [{ from: 'ops', to: 'reserve', amount: 800, day: 2 }],
  },
  {
    id: 'retiree',
    summary: 'A retiree living on Social Security and a pension, with a brokerage account and a Roth IRA.',
    owner: { name: 'Pat Sullivan', city: 'TUCSON', state: 'AZ' },
    accounts: [
      { key: 'chk', type: 'checking', name: 'Senior Checking', nickname: 'Checking', level: 4200, apy: 0.02, atm: 2, spend: { mix: 'retiree', typical: 1400 } },
      { key: 'sav', type: 'savings', name: 'Money Market Savings', nickname: 'Savings', level: 42000, apy: 3.6, cycleMonth: 2, sweepTo: 'chk' },
      { key: 'card', type: 'creditCard', name: 'FinBank Travel Rewards Visa', nickname: 'Travel card', level: 1100, limit: 12000, apr: 19.99, payFrom: 'chk', payDay: 20, pay: 'full', mix: 'retiree', cashBack: 0.01 },
      {
        key: 'brokerage', type: 'investment', name: 'Income Portfolio', nickname: 'Brokerage', opened: '2009-06', cash: 12000, reinvest: false, checkWriting: true,
        holdings: [
          { symbol: 'JNJ', weight: 0, units: 220 },
          { symbol: 'KO', weight: 0, units: 600 },
          { symbol: 'BND', weight: 0, units: 900 },
          { symbol: 'VOO', weight: 0, units: 140 },
        ],
      },
      {
        key: 'roth', type: 'roth', name: 'Roth IRA', nickname: 'Roth', opened: '2011-03', cash: 300, reinvest: true,
        holdings: [
          { symbol: 'VTSAX', weight: 0, units: 700 },
          { symbol: 'VMFXX', weight: 0, units: 8000 },
        ],
      },
    ],
    income: [
      { key: 'ssa', to: 'chk', payer: 'SSA', kind: 'benefit', net: 2480, schedule: 'monthly', day: 3 },
      { key: 'pension', to: 'chk', payer: 'State Teachers Retirement', kind: 'pension', net: 1850, schedule: 'monthly', day: 1 },
    ],
    bills: [
      { from: 'chk', merchant: 'electric', amount: 160, vary: 0.15, seasonal: true, day: 12 },
      { from: 'chk', merchant: 'water', amount: 55, vary: 0.08, day: 16 },
      { from: 'chk', merchant: 'comcast', amount: 110, day: 18 },
      { from: 'chk', merchant: 'medicare', amount: 185, day: 3 },
      { from: 'chk', merchant: 'state_farm', amount: 140, day: 20 },
      { from: 'chk', merchant: 'red_cross', amount: 50, day: 15 },
      { from: 'card', merchant: 'nytimes', amount: 17, day: 4 },
    ],
    transfers: [{ from: 'chk', to: 'sav', amount: 300, day: 5 }],
  },
  {
    id: 'many_accounts',
    summary: 'Twelve accounts at one login: three checking, three savings, three cards, brokerage, 401(k) and Roth IRA.',
    owner: { name: 'Robin Alvarez', city: 'MINNEAPOLIS', state: 'MN' },
    accounts: [
      { key: 'chk1', type: 'checking', name: 'Everyday Checking', nickname: 'Bills', level: 7500, apy: 0.01, atm: 1, spend: { mix: 'everyday', typical: 900 } },
      { key: 'chk2', type: 'checking', name: 'Spending Checking', nickname: 'Spending', level: 1800, atm: 2, spend: { mix: 'everyday', typical: 650 } },
      { key: 'chk3', type: 'checking', name: 'Kids Checking', nickname: 'Kids', level: 600, swing: 0.1, spend: { mix: 'student', typical: 150 } },
      { key: 'sav1', type: 'savings', name: 'Emergency Savings', nickname: 'Emergency', level: 20000, apy: 4, cycleMonth: 12, sweepTo: 'chk1' },
      { key: 'sav2', type: 'savings', name: 'Vacation Savings', nickname: 'Vacation', level: 1500, apy: 4, cycleMonth: 7, sweepTo: 'chk2' },
      { key: 'sav3', type: 'savings', name: 'College Savings', nickname: 'College', level: 8000, apy: 4, cycleMonth: 8, sweepTo: 'chk1' },
      { key: 'card1', type: 'creditCard', name: 'FinBank Cash Rewards Visa', nickname: 'Everyday card', level: 1500, limit: 12000, apr: 22.49, payFrom: 'chk1', payDay: 22, pay: 'full', mix: 'everyday', cashBack: 0.015 },
      { key: 'card2', type: 'creditCard', name: 'FinBank Travel Rewards Visa', nickname: 'Travel card', level: 700, swing: 0.5, limit: 15000, apr: 20.99, payFrom: 'chk1', payDay: 25, pay: 'full', mix: 'everyday', annualFee: 95, feeMonth: 9 },
      { key: 'card3', type: 'creditCard', name: 'FinBank Platinum Mastercard', nickname: 'Platinum', level: 2500, swing: 0.05, limit: 6000, apr: 26.99, payFrom: 'chk2', payDay: 15, pay: 0.2, mix: 'everyday' },
      {
        key: 'brokerage', type: 'investment', name: 'Joint Brokerage', nickname: 'Brokerage', opened: '2017-05', cash: 900, reinvest: false, marginAllowed: true,
        holdings: [
          { symbol: 'VOO', weight: 60, units: 40 },
          { symbol: 'GOOGL', weight: 10, units: 30 },
          { symbol: 'AMZN', weight: 15, units: 25 },
          { symbol: 'NVDA', weight: 15, units: 60 },
        ],
      },
      {
        key: '401k', type: 'investmentTaxDeferred', name: 'Woodgrove Bank 401(k)', nickname: '401k', opened: '2014-01', cash: 0, reinvest: true,
        holdings: [
          { symbol: 'FXAIX', weight: 80, units: 300 },
          { symbol: 'BND', weight: 20, units: 400 },
        ],
      },
      {
        key: 'roth', type: 'roth', name: 'Roth IRA', nickname: 'Roth', opened: '2019-01', cash: 50, reinvest: true,
        holdings: [{ symbol: 'VTSAX', weight: 100, units: 150 }],
      },
    ],
    income: [
      { key: 'pay', to: 'chk1', payer: 'Woodgrove Bank', kind: 'payroll', net: 4300, schedule: 'biweekly', anchor: '2025-01-10', deferral: { to: '401k', gross: 4600, percent: 10, matchPercent: 5 } },
    ],
    bills: [
      { from: 'chk1', merchant: 'rent', amount: 2100, day: 1 },
      { from: 'chk1', merchant: 'electric', amount: 110, vary: 0.12, seasonal: true, day: 12 },
      { from: 'chk1', merchant: 'comcast', amount: 75, day: 18 },
      { from: 'chk1', merchant: 'verizon', amount: 140, day: 22 },
      { from: 'chk1', merchant: 'geico', amount: 150, day: 26 },
      { from: 'card1', merchant: 'netflix', amount: 15.49, day: 9 },
      { from: 'card1', merchant: 'disney', amount: 13.99, day: 11 },
    ],
    transfers: [
      { from: 'chk1', to: 'chk2', amount: 1500, day: 1 },
      { from: 'chk1', to: 'chk3', amount: 150, day: 1 },
      { from: 'chk1', to: 'sav1', amount: 200, day: 2 },
      { from: 'chk2', to: 'sav2', amount: 150, day: 2 },
      { from: 'chk1', to: 'sav3', amount: 250, day: 3 },
      { from: 'chk1', to: 'brokerage', amount: 300, day: 5 },
      { from: 'chk1', to: 'roth', amount: 400, day: 6 },
    ],
  },
  {
    id: 'no_accounts',
    summary: 'Signs in but has no accounts.',
    owner: { name: 'Sky Turner', city: 'BOISE', state: 'ID' },
    accounts: [], income: [], bills: [], transfers: [],
  },
];

const BY_ID = new Map(PROFILES.map((p) => [p.id, p]));

export const TEST_PROFILES: readonly ProfileSpec[] = PROFILES;

/** The profile a username names (usernames are case-insensitive), if any. */
export function findProfile(username: string): ProfileSpec | undefined {
  return BY_ID.get(username.trim().toLowerCase());
}
