import { TEST_INSTITUTIONS, type TestInstitution } from '../../../connectors/testbank/institutions.js';
import type { InstitutionTable } from '../table.js';
import { REGIONS, regionByCode, type Region } from './geography.js';
import { Prng } from './prng.js';
import { REAL_INSTITUTIONS, type InstitutionClass, type RealInstitution } from './real-institutions.js';

/** Changing the seed or the count changes every generated institution: existing databases keep theirs. */
export const CATALOG_SEED = 0x1ed9e71;
export const GENERATED_COUNT = 10_400;

export const ACCOUNT_TYPE_DESCRIPTIONS: Record<InstitutionClass | 'testfi', string> = {
  banking: 'Banking',
  creditCards: 'Credit Cards/Accounts',
  wealth: 'Investments',
  retirement: 'Workplace Retirement',
  loans: 'Mortgages and Loans',
  insurance: 'Insurance',
  testfi: 'TestFI',
};

/** Probability of each product flag by class (real, large institutions get a boost). */
const FLAG_ODDS: Record<InstitutionClass, Record<ProductFlag, number>> = {
  banking: {
    trans_agg: 0.98,
    voa: 0.88,
    voi: 0.55,
    state_agg: 0.35,
    ach: 0.85,
    aha: 0.6,
    avail_balance: 0.8,
    account_owner: 0.75,
    loan_payment_details: 0.25,
    student_loan_data: 0.02,
    liability_data: 0.15,
    bill_pay_data: 0.08,
  },
  creditCards: {
    trans_agg: 0.99,
    voa: 0.7,
    voi: 0.1,
    state_agg: 0.5,
    ach: 0.1,
    aha: 0.6,
    avail_balance: 0.3,
    account_owner: 0.6,
    loan_payment_details: 0.1,
    student_loan_data: 0,
    liability_data: 0.5,
    bill_pay_data: 0.1,
  },
  wealth: {
    trans_agg: 0.97,
    voa: 0.6,
    voi: 0.1,
    state_agg: 0.3,
    ach: 0.1,
    aha: 0.5,
    avail_balance: 0.2,
    account_owner: 0.5,
    loan_payment_details: 0,
    student_loan_data: 0,
    liability_data: 0,
    bill_pay_data: 0,
  },
  retirement: {
    trans_agg: 0.97,
    voa: 0.5,
    voi: 0.05,
    state_agg: 0.3,
    ach: 0,
    aha: 0.4,
    avail_balance: 0,
    account_owner: 0.3,
    loan_payment_details: 0,
    student_loan_data: 0,
    liability_data: 0,
    bill_pay_data: 0,
  },
  loans: {
    trans_agg: 0.95,
    voa: 0.2,
    voi: 0,
    state_agg: 0.3,
    ach: 0.05,
    aha: 0.3,
    avail_balance: 0,
    account_owner: 0.4,
    loan_payment_details: 0.8,
    student_loan_data: 0,
    liability_data: 0.7,
    bill_pay_data: 0,
  },
  insurance: {
    trans_agg: 0.9,
    voa: 0.3,
    voi: 0,
    state_agg: 0.2,
    ach: 0,
    aha: 0.2,
    avail_balance: 0,
    account_owner: 0.3,
    loan_payment_details: 0,
    student_loan_data: 0,
    liability_data: 0,
    bill_pay_data: 0,
  },
};

export const PRODUCT_FLAGS = [
  'trans_agg',
  'voa',
  'voi',
  'state_agg',
  'ach',
  'aha',
  'avail_balance',
  'account_owner',
  'loan_payment_details',
  'student_loan_data',
  'liability_data',
  'bill_pay_data',
] as const;
export type ProductFlag = (typeof PRODUCT_FLAGS)[number];

const STUDENT_LOAN_SERVICERS = new Set(['Sallie Mae', 'Navient', 'Nelnet', 'MOHELA']);

const PALETTE = [
  '#004B87',
  '#00205B',
  '#00843D',
  '#C8102E',
  '#0072CE',
  '#5C2D91',
  '#E35205',
  '#00A3AD',
  '#8A1538',
  '#003DA5',
  '#2E7D32',
  '#B8860B',
  '#1F3B73',
  '#0E6655',
  '#7B241C',
  '#154360',
  '#6C3483',
  '#117A65',
  '#B03A2E',
  '#1A5276',
  '#AF601A',
  '#196F3D',
  '#922B21',
  '#283747',
  '#0B5345',
  '#4A235A',
  '#A04000',
  '#1B4F72',
  '#145A32',
  '#78281F',
];

const WORDS = [
  'Citizens',
  'Farmers',
  'Merchants',
  'Peoples',
  'Security',
  'Home',
  'Union',
  'Commercial',
  'Community',
  'Heritage',
  'Pioneer',
  'Guaranty',
  'Century',
  'Liberty',
  'Frontier',
  'Summit',
  'Heartland',
  'Cornerstone',
  'Keystone',
  'Prairie',
  'Valley',
  'River',
  'Lakeside',
  'Mountain',
  'Magnolia',
  'Cardinal',
  'Evergreen',
  'Granite',
  'Harbor',
  'Meridian',
  'Northstar',
  'Pinnacle',
  'Sterling',
  'Legacy',
  'Landmark',
  'Patriot',
  'Horizon',
  'Bluestem',
  'Cedar',
  'Crossroads',
  'Gateway',
  'Hometown',
  'Main Street',
  'Old Mill',
  'Red River',
  'Riverside',
  'Sandhills',
  'Tri-County',
  'Twin Rivers',
  'Western',
  'Southern',
  'Northern',
  'Eastern',
  'Central',
  'United',
  'American',
  'Capital',
  'Generations',
  'Signature',
  'Founders',
  'Anchor',
  'Beacon',
  'Compass',
  'Lighthouse',
  'Oak Tree',
  'Silver Lake',
  'Stockmens',
  'Cattlemens',
  'Planters',
  'Rivers Edge',
  'Timberland',
  'Waterford',
  'Woodlands',
  'Bluegrass',
  'Cumberland',
  'Ozark',
  'Piedmont',
  'Tidewater',
  'Chesapeake',
  'Great Plains',
  'High Plains',
  'Big Sky',
  'Sunflower',
  'Buckeye',
  'Hoosier',
  'Lone Star',
  'Golden Valley',
  'Blue Ridge',
  'Black Hills',
  'Coastal',
  'Pacific',
  'Atlantic',
  'Gulf Coast',
  'Desert',
  'Canyon',
  'Mesa',
  'Sierra',
  'Alpine',
  'Glacier',
  'Iron Range',
  'North Shore',
  'South Shore',
  'Lakeland',
  'Westbrook',
  'Eastwood',
  'Fairview',
  'Greenfield',
  'Highland',
  'Kingsway',
  'Maplewood',
  'Oakwood',
  'Parkway',
  'Pinewood',
  'Ridgeview',
  'Stonebridge',
  'Sunrise',
  'Unity',
  'Victory',
  'Willow Creek',
];

const CU_GROUPS = [
  'Educators',
  'State Employees',
  'Farm Bureau',
  'Telco',
  'Health Care',
  'Postal',
  'Police',
  'Firefighters',
  'Electric',
  'Railroad',
  'Public Employees',
  'Hospital',
  'Teachers',
  'University',
  'Municipal',
  'Transit',
  'Utility',
  'Steelworkers',
  'Medical',
  'Schools',
];

const CA_WORDS = [
  'Prairie',
  'Northern',
  'Coastal',
  'Heritage',
  'Frontier',
  'Lakeland',
  'Valley',
  'Westland',
  'Parkland',
  'Northland',
  'Riverbend',
  'Boreal',
  'Highland',
  'Synergy',
  'Affinity',
  'Innovation',
  'Cornerstone',
  'Unity',
  'Horizon',
  'Bayview',
  'Summit',
  'Compass',
  'Kindred',
  'Evergreen',
  'Pioneer',
  'Community First',
  'Heartland',
  'Crossroads',
  'Lakeview',
  'Riverside',
];

const US_STREETS = [
  'Main Street',
  'Broadway',
  'Market Street',
  'Commerce Street',
  'First Avenue',
  'Second Street',
  'Washington Avenue',
  'Center Street',
  'Elm Street',
  'Oak Street',
  'Church Street',
  'Court Street',
  'State Street',
  'Lincoln Avenue',
  'Jefferson Street',
  'Park Avenue',
  'Grand Avenue',
  'Maple Avenue',
  'Union Street',
  'Front Street',
  'High Street',
  'Water Street',
  'Mill Street',
  'Bank Street',
  'Spring Street',
  'College Avenue',
  'Madison Street',
  'Franklin Street',
  'Central Avenue',
  'Pine Street',
  'Walnut Street',
  'Chestnut Street',
  'Highway 30',
  'Route 9',
  'Lake Street',
  'River Road',
  'Monroe Street',
  'Adams Street',
  'Jackson Street',
  'Division Street',
];
const CA_STREETS = [
  'Main Street',
  'King Street',
  'Queen Street',
  'Victoria Avenue',
  'Portage Avenue',
  'Jasper Avenue',
  'Water Street',
  'Albert Street',
  'Dundas Street',
  'Yonge Street',
  'George Street',
  'Railway Avenue',
  'First Avenue',
  'Centre Street',
  'Mountain Road',
];
const QC_STREETS = [
  'rue Principale',
  'rue Saint-Jean',
  'boulevard Saint-Laurent',
  'rue Notre-Dame',
  'rue King Ouest',
  'boulevard des Laurentides',
  'rue Saint-Joseph',
  'boulevard Taschereau',
  "rue de l'Eglise",
  'rue Racine',
];

const LOGON_HOSTS = ['online', 'secure', 'digital', 'my', 'banking'];
const CA_POSTAL_LETTERS = 'ABCEGHJKLMNPRSTVXY';

/** Lower-case letters and digits only (accents removed): the stem of generated web addresses. */
export function slugOf(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/[^a-z0-9]/g, '');
}

type Kind = 'bank' | 'creditUnion' | 'caisse' | 'wealth' | 'loans';

interface NameChoice {
  name: string;
  slug: string;
  kind: Kind;
}

type Pattern = (p: Prng, city: string, region: Region) => NameChoice;

const bank = (name: string, slug: string): NameChoice => ({ name, slug, kind: 'bank' });
const cu = (name: string, slug: string): NameChoice => ({ name, slug, kind: 'creditUnion' });

const US_BANK_PATTERNS: Pattern[] = [
  (_p, c) => bank(`First National Bank of ${c}`, `fnb${slugOf(c)}`),
  (_p, c) => bank(`${c} National Bank`, `${slugOf(c)}nationalbank`),
  (_p, c) => bank(`${c} State Bank`, `${slugOf(c)}statebank`),
  (_p, c) => bank(`${c} Savings Bank`, `${slugOf(c)}savings`),
  (_p, c) => bank(`Bank of ${c}`, `bankof${slugOf(c)}`),
  (p, c) => {
    const w = p.pick(WORDS);
    return bank(`${w} Bank of ${c}`, `${slugOf(w)}bank${slugOf(c)}`);
  },
  (p, c) => {
    const w = p.pick(WORDS);
    return bank(`${w} State Bank of ${c}`, `${slugOf(w)}sb${slugOf(c)}`);
  },
  (p) => {
    const w = p.pick(WORDS);
    return bank(`${w} Bank & Trust`, `${slugOf(w)}bankandtrust`);
  },
  (p) => {
    const w = p.pick(WORDS);
    return bank(`${w} Community Bank`, `${slugOf(w)}communitybank`);
  },
  (_p, c) => bank(`${c} Bank & Trust`, `${slugOf(c)}bt`),
  (p, _c, r) => {
    const w = p.pick(WORDS);
    return bank(`${r.name} ${w} Bank`, `${slugOf(w)}bank${r.code.toLowerCase()}`);
  },
  (p) => {
    const w = p.pick(WORDS);
    return bank(`${w} Savings Bank`, `${slugOf(w)}savingsbank`);
  },
  (_p, c) => bank(`${c} Federal Savings and Loan`, `${slugOf(c)}fsl`),
  (p, _c, r) => {
    const w = p.pick(WORDS);
    return bank(`${w} National Bank of ${r.name}`, `${slugOf(w)}nb${r.code.toLowerCase()}`);
  },
  (_p, c) => bank(`Farmers & Merchants Bank of ${c}`, `fmbank${slugOf(c)}`),
  (_p, c) => bank(`Citizens State Bank of ${c}`, `csb${slugOf(c)}`),
  (_p, c) => bank(`${c} Community Bank`, `${slugOf(c)}communitybank`),
];

const US_CU_PATTERNS: Pattern[] = [
  (_p, c) => cu(`${c} Federal Credit Union`, `${slugOf(c)}fcu`),
  (_p, c) => cu(`${c} Community Credit Union`, `${slugOf(c)}ccu`),
  (_p, c) => cu(`${c} Teachers Credit Union`, `${slugOf(c)}tcu`),
  (_p, c) => cu(`${c} Municipal Employees Credit Union`, `${slugOf(c)}mecu`),
  (_p, c) => cu(`${c} Area Credit Union`, `${slugOf(c)}acu`),
  (p) => {
    const w = p.pick(WORDS);
    return cu(`${w} Federal Credit Union`, `${slugOf(w)}fcu`);
  },
  (p) => {
    const w = p.pick(WORDS);
    return cu(`${w} Credit Union`, `${slugOf(w)}cu`);
  },
  (p, _c, r) => {
    const g = p.pick(CU_GROUPS);
    return cu(`${r.name} ${g} Credit Union`, `${r.code.toLowerCase()}${slugOf(g)}cu`);
  },
  (p, c) => {
    const g = p.pick(CU_GROUPS);
    return cu(`${c} ${g} Credit Union`, `${slugOf(c)}${slugOf(g)}cu`);
  },
  (_p, c) => cu(`${c} Schools Federal Credit Union`, `${slugOf(c)}schoolsfcu`),
  (p, _c, r) => {
    const w = p.pick(WORDS);
    return cu(`${w} ${r.name} Credit Union`, `${slugOf(w)}${r.code.toLowerCase()}cu`);
  },
];

const CA_PATTERNS: Pattern[] = [
  (_p, c) => cu(`${c} Credit Union`, `${slugOf(c)}cu`),
  (_p, c) => cu(`${c} & District Credit Union`, `${slugOf(c)}districtcu`),
  (_p, c) => cu(`${c} Community Credit Union`, `${slugOf(c)}ccu`),
  (_p, c) => cu(`${c} Savings and Credit Union`, `${slugOf(c)}savings`),
  (p) => {
    const w = p.pick(CA_WORDS);
    return cu(`${w} Credit Union`, `${slugOf(w)}cu`);
  },
  (p, _c, r) => {
    const w = p.pick(CA_WORDS);
    return cu(`${w} ${r.name} Credit Union`, `${slugOf(w)}${r.code.toLowerCase()}cu`);
  },
];

const QC_PATTERNS: Pattern[] = [
  (_p, c) => ({ name: `Caisse Desjardins de ${c}`, slug: `caisse${slugOf(c)}`, kind: 'caisse' }),
  (_p, c) => ({ name: `Caisse populaire de ${c}`, slug: `cp${slugOf(c)}`, kind: 'caisse' }),
  (_p, c) => ({ name: `Caisse d'economie de ${c}`, slug: `ce${slugOf(c)}`, kind: 'caisse' }),
];

const OTHER_PATTERNS: Pattern[] = [
  (p) => {
    const w = p.pick(WORDS);
    return { name: `${w} Trust Company`, slug: `${slugOf(w)}trust`, kind: 'wealth' };
  },
  (_p, c) => ({ name: `${c} Investment Services`, slug: `${slugOf(c)}investments`, kind: 'wealth' }),
  (p) => {
    const w = p.pick(WORDS);
    return { name: `${w} Wealth Management`, slug: `${slugOf(w)}wealth`, kind: 'wealth' };
  },
  (p) => {
    const w = p.pick(WORDS);
    return { name: `${w} Mortgage Company`, slug: `${slugOf(w)}mortgage`, kind: 'loans' };
  },
  (_p, c) => ({ name: `${c} Home Loans`, slug: `${slugOf(c)}homeloans`, kind: 'loans' }),
];

function choosePattern(p: Prng, region: Region): Pattern {
  if (region.code === 'QC') return p.chance(0.85) ? p.pick(QC_PATTERNS) : p.pick(CA_PATTERNS);
  if (region.country === 'CAN') return p.chance(0.93) ? p.pick(CA_PATTERNS) : p.pick(OTHER_PATTERNS);
  const r = p.next();
  if (r < 0.55) return p.pick(US_BANK_PATTERNS);
  if (r < 0.93) return p.pick(US_CU_PATTERNS);
  return p.pick(OTHER_PATTERNS);
}

const CLASS_OF_KIND: Record<Kind, InstitutionClass> = { bank: 'banking', creditUnion: 'banking', caisse: 'banking', wealth: 'wealth', loans: 'loans' };

function postalCode(p: Prng, region: Region): string {
  if (typeof region.postal === 'string') {
    const letter = () => CA_POSTAL_LETTERS[p.int(0, CA_POSTAL_LETTERS.length - 1)]!;
    return `${p.pick([...region.postal])}${p.int(0, 9)}${letter()} ${p.int(0, 9)}${letter()}${p.int(0, 9)}`;
  }
  const [lo, hi] = region.postal;
  return `${String(p.int(lo, hi)).padStart(3, '0')}${String(p.int(1, 99)).padStart(2, '0')}`;
}

/** A phone number in the 555-01xx range, which is reserved for fiction in every North American area code. */
function fictionalPhone(p: Prng, areaCode: number): string {
  return `1-${areaCode}-555-01${String(p.int(0, 99)).padStart(2, '0')}`;
}

function flags(p: Prng, cls: InstitutionClass, boost: boolean): Record<ProductFlag, number> {
  const odds = FLAG_ODDS[cls];
  const out = {} as Record<ProductFlag, number>;
  for (const f of PRODUCT_FLAGS) {
    // Large institutions support the common products more often; rare products stay rare.
    const chance = boost && odds[f] >= 0.3 ? 1 - (1 - odds[f]) / 4 : odds[f];
    out[f] = odds[f] > 0 && p.chance(chance) ? 1 : 0;
  }
  return out;
}

type ProductionStatus = Pick<InstitutionTable, 'ps_overall' | 'ps_trans_agg' | 'ps_voa' | 'ps_voi' | 'ps_state_agg' | 'ps_ach' | 'ps_aha'>;

function productionStatus(p: Prng): ProductionStatus {
  const s = (odds: number) => (p.chance(odds) ? 'investigating' : 'online');
  const transAgg = s(0.015);
  return { ps_overall: transAgg, ps_trans_agg: transAgg, ps_voa: s(0.01), ps_voi: s(0.01), ps_state_agg: s(0.01), ps_ach: s(0.01), ps_aha: s(0.005) };
}

const allStatus = (status: string): ProductionStatus => ({
  ps_overall: status,
  ps_trans_agg: status,
  ps_voa: status,
  ps_voi: status,
  ps_state_agg: status,
  ps_ach: status,
  ps_aha: status,
});

function oauthInstructions(name: string): Pick<InstitutionTable, 'special_instructions' | 'special_instructions_title'> {
  return {
    special_instructions: `You will be sent to ${name} to sign in. There, choose the accounts to share and allow account details, balances and transactions, and account owner information.`,
    special_instructions_title: 'Special OAuth Login Instructions',
  };
}

interface Common {
  id: number;
  name: string;
  cls: InstitutionClass | 'testfi';
  home: string;
  logon: string;
  forgot: string;
  registration: string;
  product: string;
  phone: string;
  email: string;
  oauth: boolean;
  specialText: string;
  address: [line1: string, line2: string, city: string, state: string, postal: string];
  region: Region | undefined;
  color: string;
  flags: Record<ProductFlag, number>;
  status: ProductionStatus;
  rank: number;
}

function row(c: Common): InstitutionTable {
  const [line1, line2, city, state, postal] = c.address;
  return {
    id: c.id,
    name: c.name,
    display_name: c.name,
    account_type_description: ACCOUNT_TYPE_DESCRIPTIONS[c.cls],
    class: c.cls,
    status: 'online',
    url_home_app: c.home,
    url_logon_app: c.logon,
    url_product_app: c.product,
    url_forgot_password: c.forgot,
    url_online_registration: c.registration,
    oauth_enabled: c.oauth ? 1 : 0,
    phone: c.phone,
    email: c.email,
    currency: c.region?.country === 'CAN' ? 'CAD' : 'USD',
    special_text: c.specialText,
    ...(c.oauth ? oauthInstructions(c.name) : { special_instructions: null, special_instructions_title: null }),
    time_zone: c.region?.timeZone ?? null,
    new_institution_id: null,
    oauth_institution_id: null,
    requires_service_callout: 0,
    external_data: null,
    ...c.flags,
    address_line1: line1,
    address_line2: line2,
    city,
    state,
    postal_code: postal,
    country: c.region?.country ?? 'USA',
    primary_color: c.color,
    ...c.status,
    search_rank: c.rank,
    changed_version: null,
  };
}

const TEST_TEXT: Record<TestInstitution['behaviour'], string> = {
  standard: 'Test institution served by the Ledgerlink test bank. Sign in with one of its test profiles.',
  oauth: 'Test institution that signs in through an OAuth consent page, like large banks do.',
  'always-mfa': 'Test institution that asks a multi-factor authentication question at every sign-in.',
  down: 'Test institution whose site is always unavailable: every connection attempt fails as temporarily down.',
};

function testInstitutionRow(t: TestInstitution, p: Prng): InstitutionTable {
  const host = new URL(t.urlHomeApp).host;
  const utah = regionByCode('UT');
  const allFlags = Object.fromEntries(PRODUCT_FLAGS.map((f) => [f, 1])) as Record<ProductFlag, number>;
  return row({
    id: t.id,
    name: t.name,
    cls: 'testfi',
    home: t.urlHomeApp,
    logon: `${t.urlHomeApp}/login`,
    forgot: `${t.urlHomeApp}/login/forgot-password`,
    registration: `${t.urlHomeApp}/enroll`,
    product: `${t.urlHomeApp}/personal`,
    phone: fictionalPhone(p, 801),
    email: `support@${host.replace(/^www\./, '')}`,
    oauth: t.behaviour === 'oauth',
    specialText: TEST_TEXT[t.behaviour],
    address: ['1 FinBank Plaza', 'Suite 100', 'Salt Lake City', 'UT', '84101'],
    region: utah,
    color: '#0167AE',
    flags: allFlags,
    status: allStatus(t.behaviour === 'down' ? 'investigating' : 'online'),
    rank: 0,
  });
}

function realInstitutionRow(inst: RealInstitution, id: number, rank: number, p: Prng): InstitutionTable {
  const [line1 = '', city = '', state = '', postal = ''] = inst.hq.split('|');
  const region = regionByCode(state);
  const host = new URL(inst.home).host.replace(/^www\./, '');
  const logon = inst.logon ?? inst.home;
  const f = flags(p, inst.class, true);
  if (inst.class === 'loans') f.student_loan_data = STUDENT_LOAN_SERVICERS.has(inst.name) ? 1 : 0;
  return row({
    id,
    name: inst.name,
    cls: inst.class,
    home: inst.home,
    logon,
    forgot: logon,
    registration: inst.home,
    product: inst.home,
    phone: inst.phone ?? fictionalPhone(p, region?.areaCodes[0] ?? 800),
    email: `customerservice@${host}`,
    oauth: inst.oauth ?? false,
    specialText: `Please enter your ${inst.name} ${inst.class === 'banking' ? 'User ID' : 'Username'} and Password required for login.`,
    address: [line1, '', city, state, postal],
    region,
    color: inst.color,
    flags: f,
    status: allStatus('online'),
    rank,
  });
}

function generatedRow(choice: NameChoice, domain: string, id: number, region: Region, city: string, p: Prng): InstitutionTable {
  const cls = CLASS_OF_KIND[choice.kind];
  const logonBase = `https://${p.pick(LOGON_HOSTS)}.${domain}`;
  const streets = region.code === 'QC' ? QC_STREETS : region.country === 'CAN' ? CA_STREETS : US_STREETS;
  const member = choice.kind === 'creditUnion' || choice.kind === 'caisse';
  return row({
    id,
    name: choice.name,
    cls,
    home: `https://www.${domain}`,
    logon: `${logonBase}/login`,
    forgot: `${logonBase}/login/forgot-password`,
    registration: `${logonBase}/enroll`,
    product: `https://www.${domain}/personal`,
    phone: fictionalPhone(p, p.pick(region.areaCodes)),
    email: `${member ? 'memberservices' : choice.kind === 'bank' ? 'customerservice' : 'info'}@${domain}`,
    oauth: false,
    specialText: `Please enter your ${choice.name} ${member ? 'Member Number or Username' : 'User ID'} and Password required for login.`,
    address: [
      `${p.int(1, 9999)} ${p.pick(streets)}`,
      p.chance(0.2) ? `Suite ${p.int(1, 6)}${String(p.int(0, 99)).padStart(2, '0')}` : '',
      city,
      region.code,
      postalCode(p, region),
    ],
    region,
    color: p.pick(PALETTE),
    flags: flags(p, cls, false),
    status: productionStatus(p),
    rank: 0,
  });
}

/**
 * The whole catalogue: the test institutions, the well-known real ones, then generated community banks,
 * credit unions and caisses across every US state and Canadian province. Deterministic: the same code always
 * yields the same rows (ids, names, flags), in well under a second.
 */
export function generateCatalog(): InstitutionTable[] {
  const p = new Prng(CATALOG_SEED);
  // The reference's example institutions draw from a generator of their own, so that adding one moves nothing else.
  const rows: InstitutionTable[] = TEST_INSTITUTIONS.filter((t) => !t.referenceExample).map((t) => testInstitutionRow(t, p));
  const examples = TEST_INSTITUTIONS.filter((t) => t.referenceExample).map((t) => testInstitutionRow(t, new Prng(t.id)));
  const reserved = new Set([...rows, ...examples].map((r) => r.id));
  const names = new Set([...rows, ...examples].map((r) => r.name.toLowerCase()));

  let id = 1000;
  const idOfName = new Map<string, number>();
  REAL_INSTITUTIONS.forEach((inst, i) => {
    id += p.int(3, 29);
    while (reserved.has(id)) id++;
    idOfName.set(inst.name, id);
    names.add(inst.name.toLowerCase());
    rows.push(realInstitutionRow(inst, id, REAL_INSTITUTIONS.length - i, p));
  });
  for (const inst of REAL_INSTITUTIONS) {
    if (!inst.mergedInto) continue;
    const successor = idOfName.get(inst.mergedInto);
    if (successor === undefined) throw new Error(`catalogue: ${inst.name} merged into unknown ${inst.mergedInto}`);
    rows.find((r) => r.id === idOfName.get(inst.name))!.new_institution_id = successor;
  }

  const domains = new Set<string>();
  const totalWeight = REGIONS.reduce((s, r) => s + r.weight, 0);
  id = 10_000;
  let generated = 0;
  for (let attempts = 0; generated < GENERATED_COUNT; attempts++) {
    if (attempts > GENERATED_COUNT * 20) throw new Error('catalogue: ran out of distinct names');
    const region = p.weighted(REGIONS, (r) => r.weight, totalWeight);
    const city = p.pick(region.cities);
    const choice = choosePattern(p, region)(p, city, region);
    const key = choice.name.toLowerCase();
    if (names.has(key)) continue;
    names.add(key);
    let domain = `${choice.slug}.example`;
    if (domains.has(domain)) domain = `${choice.slug}-${region.code.toLowerCase()}.example`;
    for (let n = 2; domains.has(domain); n++) domain = `${choice.slug}${n}.example`;
    domains.add(domain);
    do id += p.int(1, 4);
    while (reserved.has(id));
    rows.push(generatedRow(choice, domain, id, region, city, p));
    generated++;
  }
  return [...rows, ...examples];
}
