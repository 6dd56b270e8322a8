/**
 * Well-known merchants and billers as they appear on statements in the US, the UK, Germany, France, the Netherlands
 * and Spain: the words that name them, the name a person writes and the category of a purchase there. A statement
 * line names a merchant in capitals, cut short and glued to codes ("WHOLEFDS MKT", "AMZN Mktp US*2K4LR5T12"), so
 * each entry lists the words as they come after the line is split into words (upper case, without accents,
 * apostrophes, dots or hyphens: "MCDONALD'S" is MCDONALDS, "WAL-MART" is WALMART, "H-E-B" is HEB).
 */
import type { TransactionCategory } from './categories.js';

export interface Merchant {
  /** The words that name it, in order. */
  words: readonly string[];
  name: string;
  category: TransactionCategory;
  /** Only as the first word of the payee: a common word elsewhere ("PLUS", "DIA", "SKY"). */
  first: boolean;
}

/**
 * One merchant a line: `WORDS | WORDS = Name = Category`, several spellings separated by `|`; a leading `^` means
 * the words count only at the start of the payee.
 */
const TABLE = `
WHOLEFDS | WHOLE FOODS | WHOLEFOODS | WFM = Whole Foods = Groceries
TRADER JOE | TRADER JOES = Trader Joe's = Groceries
SAFEWAY = Safeway = Groceries
SAFEWAY FUEL = Safeway Fuel = Gas & Fuel
KROGER = Kroger = Groceries
KROGER FUEL = Kroger Fuel = Gas & Fuel
PUBLIX = Publix = Groceries
ALDI = Aldi = Groceries
ALDI SUED | ALDI SUD = Aldi Süd = Groceries
ALDI NORD = Aldi Nord = Groceries
HEB = H-E-B = Groceries
WEGMANS = Wegmans = Groceries
KING SOOPERS = King Soopers = Groceries
STOP & SHOP | STOP AND SHOP = Stop & Shop = Groceries
SPROUTS = Sprouts Farmers Market = Groceries
INSTACART = Instacart = Groceries
ALBERTSONS = Albertsons = Groceries
FOOD LION = Food Lion = Groceries
GIANT EAGLE = Giant Eagle = Groceries
MEIJER = Meijer = Groceries
HY VEE | HYVEE = Hy-Vee = Groceries
FRED MEYER = Fred Meyer = Groceries
RALPHS = Ralphs = Groceries
VONS = Vons = Groceries
SHOPRITE = ShopRite = Groceries
WINCO = WinCo Foods = Groceries
HARRIS TEETER = Harris Teeter = Groceries
QFC = QFC = Groceries
COSTCO | COSTCO WHSE | COSTCO WHOLESALE = Costco = Groceries
COSTCO GAS = Costco Gas = Gas & Fuel
SAMS CLUB | SAMSCLUB = Sam's Club = Groceries
BJS WHOLESALE = BJ's Wholesale Club = Groceries
WALMART | WAL MART | WM SUPERCENTER | WALMART SUPERCENTER = Walmart = Shopping
TARGET = Target = Shopping
AMAZON | AMZN | AMZN MKTP | AMAZON MKTPLACE | AMAZON MARKETPLACE | AMZNMKTPLACE | AMAZON PAYMENTS | AMAZON RETAIL = Amazon = Shopping
AMAZON PRIME = Amazon Prime = Shopping
PRIME VIDEO | AMAZON PRIME VIDEO = Prime Video = Streaming Services
AMAZON FRESH = Amazon Fresh = Groceries
AUDIBLE = Audible = Books
KINDLE = Kindle = Books
EBAY = eBay = Shopping
ETSY = Etsy = Shopping
BEST BUY | BESTBUY = Best Buy = Electronics & Software
APPLE BILL | ^APPLE | ITUNES = Apple = Electronics & Software
APPLE STORE = Apple Store = Electronics & Software
MICROSOFT = Microsoft = Electronics & Software
MICROSOFT 365 | MSFT 365 = Microsoft 365 = Electronics & Software
XBOX = Xbox = Entertainment
YOUTUBE PREMIUM = YouTube Premium = Streaming Services
YOUTUBE TV = YouTube TV = Television
GOOGLE STORAGE | GOOGLE ONE = Google Storage = Electronics & Software
NETFLIX = Netflix = Streaming Services
SPOTIFY = Spotify = Streaming Services
HULU = Hulu = Streaming Services
DISNEY PLUS | DISNEYPLUS | DISNEY+ = Disney+ = Streaming Services
HBO MAX | HBOMAX | MAX COM = HBO Max = Streaming Services
PARAMOUNT+ | PARAMOUNT PLUS = Paramount+ = Streaming Services
PEACOCK = Peacock = Streaming Services
APPLE TV = Apple TV+ = Streaming Services
DAZN = DAZN = Streaming Services
DEEZER = Deezer = Streaming Services
BARNES & NOBLE | BARNES NOBLE | BARNESNOBLE = Barnes & Noble = Books
^AMC = AMC Theatres = Movies & DVDs
REGAL CINEMAS = Regal Cinemas = Movies & DVDs
FANDANGO = Fandango = Movies & DVDs
TICKETMASTER = Ticketmaster = Entertainment
STEAMGAMES | STEAM GAMES | STEAMPOWERED = Steam = Entertainment
PLAYSTATION NETWORK = PlayStation Network = Entertainment
NINTENDO = Nintendo = Entertainment
STARBUCKS = Starbucks = Coffee Shops
DUNKIN | DUNKIN DONUTS = Dunkin' = Coffee Shops
PEETS | PEETS COFFEE = Peet's Coffee = Coffee Shops
BLUE BOTTLE COFFEE | BLUE BOTTLE = Blue Bottle Coffee = Coffee Shops
TIM HORTONS = Tim Hortons = Coffee Shops
COSTA COFFEE | ^COSTA = Costa Coffee = Coffee Shops
CAFFE NERO = Caffè Nero = Coffee Shops
MCDONALDS | MCDONALD | MCDO = McDonald's = Fast Food
CHIPOTLE = Chipotle = Fast Food
CHICKFILA = Chick-fil-A = Fast Food
TACO BELL = Taco Bell = Fast Food
WENDYS = Wendy's = Fast Food
BURGER KING = Burger King = Fast Food
PANERA | PANERA BREAD = Panera Bread = Fast Food
SUBWAY = Subway = Fast Food
DOMINOS = Domino's = Fast Food
PIZZA HUT = Pizza Hut = Fast Food
PAPA JOHNS = Papa John's = Fast Food
KFC = KFC = Fast Food
POPEYES = Popeyes = Fast Food
FIVE GUYS = Five Guys = Fast Food
SHAKE SHACK = Shake Shack = Fast Food
IN N OUT | INNOUT = In-N-Out Burger = Fast Food
JACK IN THE BOX = Jack in the Box = Fast Food
SONIC DRIVE IN = Sonic Drive-In = Fast Food
ARBYS = Arby's = Fast Food
PRET A MANGER = Pret A Manger = Fast Food
GREGGS = Greggs = Fast Food
TELEPIZZA = Telepizza = Fast Food
OLIVE GARDEN = Olive Garden = Restaurants
CHEESECAKE FACTORY | THE CHEESECAKE FACTORY = The Cheesecake Factory = Restaurants
APPLEBEES = Applebee's = Restaurants
CHILIS = Chili's = Restaurants
IHOP = IHOP = Restaurants
DENNYS = Denny's = Restaurants
SWEETGREEN = Sweetgreen = Restaurants
NANDOS = Nando's = Restaurants
WAGAMAMA = Wagamama = Restaurants
DOORDASH | DD DOORDASH = DoorDash = Restaurants
UBER EATS | UBEREATS = Uber Eats = Restaurants
GRUBHUB = Grubhub = Restaurants
POSTMATES = Postmates = Restaurants
DELIVEROO = Deliveroo = Restaurants
JUST EAT = Just Eat = Restaurants
LIEFERANDO = Lieferando = Restaurants
THUISBEZORGD = Thuisbezorgd.nl = Restaurants
GLOVO = Glovo = Restaurants
UBER | UBER TRIP | UBER BV = Uber = Rental Car & Taxi
LYFT = Lyft = Rental Car & Taxi
CABIFY = Cabify = Rental Car & Taxi
^BOLT = Bolt = Rental Car & Taxi
HERTZ = Hertz = Rental Car & Taxi
ENTERPRISE RENTACAR | ENTERPRISE RENT A CAR = Enterprise Rent-A-Car = Rental Car & Taxi
^AVIS = Avis = Rental Car & Taxi
BUDGET RENT A CAR = Budget = Rental Car & Taxi
SIXT = Sixt = Rental Car & Taxi
ZIPCAR = Zipcar = Rental Car & Taxi
SHELL | SHELL OIL | SHELL SERVICE = Shell = Gas & Fuel
EXXONMOBIL | EXXON | EXXON MOBIL | MOBIL = ExxonMobil = Gas & Fuel
CHEVRON = Chevron = Gas & Fuel
^BP = BP = Gas & Fuel
SUNOCO = Sunoco = Gas & Fuel
WAWA = Wawa = Gas & Fuel
SHEETZ = Sheetz = Gas & Fuel
7 ELEVEN | 7ELEVEN | SEVEN ELEVEN = 7-Eleven = Gas & Fuel
CIRCLE K = Circle K = Gas & Fuel
MARATHON PETRO = Marathon = Gas & Fuel
SPEEDWAY = Speedway = Gas & Fuel
VALERO = Valero = Gas & Fuel
^ARCO = ARCO = Gas & Fuel
CITGO = Citgo = Gas & Fuel
QUIKTRIP | ^QT = QuikTrip = Gas & Fuel
^CASEYS = Casey's = Gas & Fuel
ARAL = Aral = Gas & Fuel
^JET = JET = Gas & Fuel
ESSO = Esso = Gas & Fuel
TOTALENERGIES | TOTAL ACCESS | TOTALENERGIES STATION = TotalEnergies = Gas & Fuel
REPSOL = Repsol = Gas & Fuel
CEPSA = Cepsa = Gas & Fuel
^TANGO = Tango = Gas & Fuel
WALGREENS = Walgreens = Pharmacy
CVS | CVS PHARMACY = CVS = Pharmacy
RITE AID = Rite Aid = Pharmacy
BOOTS = Boots = Pharmacy
HOME DEPOT | THE HOME DEPOT = Home Depot = Home Improvement
LOWES = Lowe's = Home Improvement
MENARDS = Menards = Home Improvement
ACE HARDWARE = Ace Hardware = Home Improvement
OBI = OBI = Home Improvement
LEROY MERLIN = Leroy Merlin = Home Improvement
^GAMMA = Gamma = Home Improvement
PRAXIS = Praxis = Home Improvement
BAUHAUS = Bauhaus = Home Improvement
HORNBACH = Hornbach = Home Improvement
IKEA = IKEA = Furnishings
WAYFAIR = Wayfair = Furnishings
BED BATH & BEYOND | BED BATH BEYOND = Bed Bath & Beyond = Furnishings
PETCO = Petco = Pet Food & Supplies
PETSMART = PetSmart = Pet Food & Supplies
CHEWY = Chewy = Pet Food & Supplies
FRESSNAPF = Fressnapf = Pet Food & Supplies
BANFIELD = Banfield Pet Hospital = Veterinary
NORDSTROM = Nordstrom = Clothing
OLD NAVY = Old Navy = Clothing
^GAP = Gap = Clothing
MACYS = Macy's = Clothing
TJ MAXX | TJMAXX = TJ Maxx = Clothing
MARSHALLS = Marshalls = Clothing
ROSS STORES = Ross = Clothing
KOHLS = Kohl's = Clothing
NIKE = Nike = Clothing
ADIDAS = Adidas = Clothing
UNIQLO = Uniqlo = Clothing
H&M = H&M = Clothing
ZARA = Zara = Clothing
PRIMARK = Primark = Clothing
ZALANDO = Zalando = Clothing
C&A = C&A = Clothing
^REI = REI = Sporting Goods
DICKS SPORTING GOODS | DICKS SPORTING = Dick's Sporting Goods = Sporting Goods
DECATHLON = Decathlon = Sporting Goods
PLANET FITNESS = Planet Fitness = Gym
LA FITNESS = LA Fitness = Gym
EQUINOX = Equinox = Gym
24 HOUR FITNESS = 24 Hour Fitness = Gym
ANYTIME FITNESS = Anytime Fitness = Gym
BASIC FIT = Basic-Fit = Gym
FITX = FitX = Gym
MCFIT = McFit = Gym
PURE GYM | PUREGYM = PureGym = Gym
SUPERCUTS = Supercuts = Hair
GREAT CLIPS = Great Clips = Hair
DELTA AIR | DELTA AIR LINES | DELTA AIRLINES = Delta Air Lines = Air Travel
UNITED AIRLINES | UNITED AIR = United Airlines = Air Travel
^UNITED = United Airlines = Air Travel
SOUTHWES | SOUTHWEST AIRLINES | SOUTHWEST AIR = Southwest Airlines = Air Travel
AMERICAN AIR | AMERICAN AIRLINES = American Airlines = Air Travel
ALASKA AIR | ALASKA AIRLINES = Alaska Airlines = Air Travel
JETBLUE = JetBlue = Air Travel
SPIRIT AIRL = Spirit Airlines = Air Travel
BRITISH AIRWAYS = British Airways = Air Travel
EASYJET = easyJet = Air Travel
RYANAIR = Ryanair = Air Travel
LUFTHANSA = Lufthansa = Air Travel
EUROWINGS = Eurowings = Air Travel
AIR FRANCE = Air France = Air Travel
KLM = KLM = Air Travel
TRANSAVIA = Transavia = Air Travel
IBERIA = Iberia = Air Travel
VUELING = Vueling = Air Travel
MARRIOTT = Marriott = Hotel
HILTON = Hilton = Hotel
HILTON GARDEN INN = Hilton Garden Inn = Hotel
HAMPTON INN = Hampton Inn = Hotel
HOLIDAY INN = Holiday Inn = Hotel
HYATT = Hyatt = Hotel
PREMIER INN = Premier Inn = Hotel
NH HOTEL | NH HOTELS | NH HOTEL COLLECTION = NH Hotels = Hotel
AIRBNB = Airbnb = Hotel
BOOKING COM = Booking.com = Hotel
EXPEDIA = Expedia = Travel
AMTRAK = Amtrak = Public Transportation
^MTA = MTA = Public Transportation
CLIPPER = Clipper = Public Transportation
WMATA | WMATA SMARTRIP = WMATA = Public Transportation
^BART = BART = Public Transportation
TFL | TFL TRAVEL | TFL GOV = TfL = Public Transportation
TRAINLINE = Trainline = Public Transportation
DB VERTRIEB | DB BAHN | DEUTSCHE BAHN = Deutsche Bahn = Public Transportation
BVG = BVG = Public Transportation
MVG | MVV = MVG = Public Transportation
HVV = HVV = Public Transportation
SNCF | SNCF INTERNET | SNCF CONNECT = SNCF = Public Transportation
RATP = RATP = Public Transportation
NAVIGO = Navigo = Public Transportation
^NS | NS GROEP | NS REIZIGERS = NS = Public Transportation
GVB = GVB = Public Transportation
^RET = RET = Public Transportation
RENFE = Renfe = Public Transportation
PARKMOBILE = ParkMobile = Parking
SPOTHERO = SpotHero = Parking
SP+ PARKING = SP+ Parking = Parking
EZPASS = E-ZPass = Auto & Transport
FASTRAK = FasTrak = Auto & Transport
GEICO = GEICO = Auto Insurance
STATE FARM = State Farm = Auto Insurance
PROGRESSIVE = Progressive = Auto Insurance
ALLSTATE = Allstate = Auto Insurance
LIBERTY MUTUAL = Liberty Mutual = Auto Insurance
HUKCOBURG | HUK COBURG = HUK-Coburg = Auto Insurance
MAAF = MAAF = Auto Insurance
MAPFRE = Mapfre = Auto Insurance
CENTRAAL BEHEER = Centraal Beheer = Auto Insurance
LEMONADE = Lemonade = Home Insurance
ALLIANZ = Allianz = Home Insurance
TOYOTA FINANCIAL | TOYOTA FINANCIAL SERVICES = Toyota Financial = Auto Payment
HONDA FINANCIAL = Honda Financial = Auto Payment
FORD CREDIT = Ford Credit = Auto Payment
JIFFY LUBE = Jiffy Lube = Service & Parts
AUTOZONE = AutoZone = Service & Parts
PEP BOYS = Pep Boys = Service & Parts
VERIZON | VERIZON WIRELESS | VZWRLSS | VZ WIRELESS = Verizon Wireless = Mobile Phone
TMOBILE = T-Mobile = Mobile Phone
AT&T | ^ATT = AT&T = Mobile Phone
^SPRINT = Sprint = Mobile Phone
VODAFONE = Vodafone = Mobile Phone
O2 = O2 = Mobile Phone
KPN = KPN = Mobile Phone
ODIDO = Odido = Mobile Phone
FREE MOBILE = Free Mobile = Mobile Phone
^ORANGE = Orange = Mobile Phone
SFR = SFR = Mobile Phone
BOUYGUES TELECOM | BOUYGUES = Bouygues Telecom = Internet
MOVISTAR = Movistar = Mobile Phone
DIGI SPAIN | DIGI MOBIL = Digi = Mobile Phone
TELEKOM | TELEKOM DEUTSCHLAND | DEUTSCHE TELEKOM = Telekom = Home Phone
1&1 | 1&1 TELECOM = 1&1 = Internet
COMCAST | COMCAST CABLE = Comcast = Internet
XFINITY | COMCAST XFINITY = Xfinity = Internet
SPECTRUM = Spectrum = Internet
COX COMM | COX COMMUNICATIONS = Cox = Internet
ZIGGO = Ziggo = Internet
^BT | BT GROUP = BT = Internet
^SKY | SKY DIGITAL = Sky = Television
CANAL+ | CANAL PLUS = Canal+ = Television
TV LICENCE = TV Licence = Television
RUNDFUNK | RUNDFUNK ARD = Rundfunkbeitrag = Television
PUGET SOUND ENER | PUGET SOUND ENERGY = Puget Sound Energy = Utilities
PG&E | PGANDE | PACIFIC GAS = PG&E = Utilities
CON ED | CONED | CON EDISON = Con Edison = Utilities
XCEL ENERGY = Xcel Energy = Utilities
DUKE ENERGY = Duke Energy = Utilities
SEATTLE PUBLIC UTIL = Seattle Public Utilities = Utilities
BRITISH GAS = British Gas = Utilities
THAMES WATER = Thames Water = Utilities
OCTOPUS ENERGY = Octopus Energy = Utilities
VATTENFALL = Vattenfall = Utilities
EON | E ON = E.ON = Utilities
EDF = EDF = Utilities
ENGIE = Engie = Utilities
IBERDROLA = Iberdrola = Utilities
ENDESA = Endesa = Utilities
NATURGY = Naturgy = Utilities
ENECO = Eneco = Utilities
ESSENT = Essent = Utilities
WATERNET = Waternet = Utilities
CANAL DE ISABEL II = Canal de Isabel II = Utilities
CHASE CREDIT CRD | CHASE CARD | CHASE EPAY = Chase = Credit Card Payment
DISCOVER E PAYMENT | DISCOVER EPAYMENT | ^DISCOVER = Discover = Credit Card Payment
AMEX EPAYMENT | AMEX | AMERICAN EXPRESS = American Express = Credit Card Payment
CAPITAL ONE = Capital One = Credit Card Payment
CITI CARD | CITI AUTOPAY = Citi = Credit Card Payment
WELLS FARGO HOME MTG | WF HOME MTG = Wells Fargo Home Mortgage = Mortgage & Rent
ROCKET MORTGAGE = Rocket Mortgage = Mortgage & Rent
BILT RENT = Bilt Rent = Mortgage & Rent
NAVIENT = Navient = Student Loan
NELNET = Nelnet = Student Loan
GREAT LAKES ED = Great Lakes = Student Loan
SALLIE MAE = Sallie Mae = Student Loan
ZELLE = Zelle = Transfer
SSA TREAS | SOC SEC = Social Security = Income
IRS | IRS TREAS | IRS USATAXPYMT = IRS = Federal Tax
FRANCHISE TAX BD | FRANCHISE TAX BOARD = Franchise Tax Board = State Tax
BELASTINGDIENST = Belastingdienst = Taxes
HMRC = HMRC = Taxes
VENMO = Venmo = Transfer
CASH APP | SQUARE CASH = Cash App = Transfer
PAYPAL = PayPal = Transfer
TIKKIE = Tikkie = Transfer
^WISE = Wise = Transfer
RED CROSS | AMERICAN RED CROSS = American Red Cross = Charity
GOFUNDME = GoFundMe = Charity
UNICEF = UNICEF = Charity
USPS = USPS = Shipping
THE UPS STORE | UPS STORE = The UPS Store = Shipping
FEDEX = FedEx = Shipping
KINDERCARE = KinderCare = Babysitter & Daycare
KAISER PERMANENTE = Kaiser Permanente = Doctor
UNITEDHEALTHCARE | UNITED HEALTHCARE = UnitedHealthcare = Health Insurance
TECHNIKER KRANKENKASSE = Techniker Krankenkasse = Health Insurance
ZILVEREN KRUIS = Zilveren Kruis = Health Insurance
SANITAS = Sanitas = Health Insurance
MUTUELLE GENERALE = Mutuelle Générale = Health Insurance
COURSERA = Coursera = Education
UDEMY = Udemy = Education
DUOLINGO = Duolingo = Education
NYTIMES | NEW YORK TIMES | THE NEW YORK TIMES = The New York Times = Newspapers & Magazines
WSJ | WALL STREET JOURNAL = The Wall Street Journal = Newspapers & Magazines
STAPLES = Staples = Office Supplies
OFFICE DEPOT = Office Depot = Office Supplies
TOTAL WINE = Total Wine & More = Alcohol & Bars
BEVMO = BevMo! = Alcohol & Bars
LEGO = LEGO Store = Toys
SIX FLAGS = Six Flags = Amusement
TESCO | TESCO STORES = Tesco = Groceries
SAINSBURYS | SAINSBURY | SAINSBURYS S MKTS = Sainsbury's = Groceries
ASDA = Asda = Groceries
WAITROSE = Waitrose = Groceries
M&S SIMPLY FOOD | M&S FOOD | MARKS & SPENCER | M&S = M&S = Groceries
MORRISONS = Morrisons = Groceries
CO OP GROUP | COOP FOOD = Co-op = Groceries
LIDL = Lidl = Groceries
NTUC FAIRPRICE = NTUC FairPrice = Groceries
REWE = REWE = Groceries
EDEKA = EDEKA = Groceries
NETTO | NETTO MARKEN = Netto = Groceries
KAUFLAND = Kaufland = Groceries
^PENNY = Penny = Groceries
^DM | DM DROGERIE | DMDROGERIE | DMDROGERIE MARKT = dm = Personal Care
ROSSMANN = Rossmann = Personal Care
MEDIAMARKT | MEDIA MARKT = MediaMarkt = Electronics & Software
^SATURN = Saturn = Electronics & Software
MEDIMAX = Medimax = Electronics & Software
CARREFOUR = Carrefour = Groceries
CARREFOUR MARKET = Carrefour Market = Groceries
CARREFOUR CITY = Carrefour City = Groceries
CARREFOUR EXPRESS = Carrefour Express = Groceries
MONOPRIX = Monoprix = Groceries
LECLERC | E LECLERC = E.Leclerc = Groceries
LECLERC DRIVE = E.Leclerc Drive = Groceries
AUCHAN = Auchan = Groceries
INTERMARCHE = Intermarché = Groceries
PICARD | PICARD SURGELES = Picard = Groceries
FRANPRIX = Franprix = Groceries
^CASINO = Casino = Groceries
FNAC = Fnac = Electronics & Software
ALBERT HEIJN | AH TO GO = Albert Heijn = Groceries
JUMBO | JUMBO SUPERMARKTEN = Jumbo = Groceries
^PLUS = Plus = Groceries
^DIRK = Dirk = Groceries
PICNIC = Picnic = Groceries
KRUIDVAT = Kruidvat = Personal Care
ETOS = Etos = Personal Care
HEMA = HEMA = Shopping
BOL COM | BOLCOM | BOL = Bol.com = Shopping
COOLBLUE = Coolblue = Electronics & Software
MERCADONA = Mercadona = Groceries
^DIA | DIA SUPERMERCADO = Dia = Groceries
ALCAMPO = Alcampo = Groceries
EROSKI = Eroski = Groceries
EL CORTE INGLES | CORTE INGLES = El Corte Inglés = Shopping
`;

/** The table above, read once. */
export const MERCHANTS: readonly Merchant[] = TABLE.trim()
  .split('\n')
  .flatMap((line) => {
    const [spellings, name, category] = line.split(' = ') as [string, string, TransactionCategory];
    return spellings.split(' | ').flatMap((s) => {
      const first = s.startsWith('^');
      const words = (first ? s.slice(1) : s).split(' ');
      const merchant = { words, name, category, first };
      // A hyphen keeps a word whole (BASIC-FIT is BASICFIT), so each name of several words also counts joined.
      return words.length > 1 ? [merchant, { ...merchant, words: [words.join('')] }] : [merchant];
    });
  });
