/**
 * Well-known real institutions of the United States and Canada with their public web sites, headquarters and
 * brand colours, most popular first (the order ranks equally good search matches). Phone numbers are the
 * published customer service numbers where given; the catalogue generator fills the others with numbers from
 * the 555-01xx range reserved for fiction rather than invent a real-looking one.
 */
export type InstitutionClass = 'banking' | 'creditCards' | 'wealth' | 'retirement' | 'loans' | 'insurance';

export interface RealInstitution {
  name: string;
  home: string;
  class: InstitutionClass;
  /** Primary brand colour, #RRGGBB. */
  color: string;
  /** Headquarters: "line1|city|state|postal code" (Canadian provinces make the country CAN). */
  hq: string;
  logon?: string;
  phone?: string;
  oauth?: boolean;
  /** For institutions that were merged away: the name of the one that took them over. */
  mergedInto?: string;
}

type Extra = Pick<RealInstitution, 'logon' | 'phone' | 'oauth' | 'mergedInto'>;

function r(name: string, home: string, cls: InstitutionClass, color: string, hq: string, extra: Extra = {}): RealInstitution {
  return { name, home, class: cls, color, hq, ...extra };
}

export const REAL_INSTITUTIONS: readonly RealInstitution[] = [
  // Largest US banks
  r('Chase', 'https://www.chase.com', 'banking', '#117ACA', '270 Park Avenue|New York|NY|10017', {
    logon: 'https://secure.chase.com/web/auth/dashboard',
    phone: '1-800-935-9935',
    oauth: true,
  }),
  r('Bank of America', 'https://www.bankofamerica.com', 'banking', '#E31837', '100 North Tryon Street|Charlotte|NC|28255', {
    logon: 'https://secure.bankofamerica.com/login/sign-in/signOnV2Screen.go',
    phone: '1-800-432-1000',
    oauth: true,
  }),
  r('Wells Fargo', 'https://www.wellsfargo.com', 'banking', '#D71E28', '420 Montgomery Street|San Francisco|CA|94104', {
    logon: 'https://connect.secure.wellsfargo.com/auth/login/present',
    phone: '1-800-869-3557',
    oauth: true,
  }),
  r('Citibank', 'https://www.citi.com', 'banking', '#056DAE', '388 Greenwich Street|New York|NY|10013', {
    logon: 'https://online.citi.com/US/login.do',
    phone: '1-888-248-4226',
    oauth: true,
  }),
  r('Capital One', 'https://www.capitalone.com', 'banking', '#004977', '1680 Capital One Drive|McLean|VA|22102', {
    logon: 'https://verified.capitalone.com/auth/signin',
    phone: '1-877-383-4802',
    oauth: true,
  }),
  r('U.S. Bank', 'https://www.usbank.com', 'banking', '#0C2074', '800 Nicollet Mall|Minneapolis|MN|55402', {
    logon: 'https://onlinebanking.usbank.com/Auth/Login',
    phone: '1-800-872-2657',
    oauth: true,
  }),
  r('PNC Bank', 'https://www.pnc.com', 'banking', '#EF7622', '300 Fifth Avenue|Pittsburgh|PA|15222', { phone: '1-888-762-2265', oauth: true }),
  r('Truist', 'https://www.truist.com', 'banking', '#2E1A47', '214 North Tryon Street|Charlotte|NC|28202', { phone: '1-844-487-8478', oauth: true }),
  r('TD Bank', 'https://www.td.com/us/en/personal-banking', 'banking', '#34A853', '1701 Route 70 East|Cherry Hill|NJ|08034', {
    logon: 'https://onlinebanking.tdbank.com',
    phone: '1-888-751-9000',
    oauth: true,
  }),
  r('Citizens Bank', 'https://www.citizensbank.com', 'banking', '#008555', 'One Citizens Plaza|Providence|RI|02903', { phone: '1-800-922-9999', oauth: true }),
  r('Fifth Third Bank', 'https://www.53.com', 'banking', '#0B3E8A', '38 Fountain Square Plaza|Cincinnati|OH|45263', { phone: '1-800-972-3030' }),
  r('KeyBank', 'https://www.key.com', 'banking', '#CC0000', '127 Public Square|Cleveland|OH|44114', { phone: '1-800-539-2968' }),
  r('Huntington Bank', 'https://www.huntington.com', 'banking', '#5A8B3B', '41 South High Street|Columbus|OH|43287', { phone: '1-800-480-2265', oauth: true }),
  r('Regions Bank', 'https://www.regions.com', 'banking', '#5C8727', '1900 Fifth Avenue North|Birmingham|AL|35203', { phone: '1-800-734-4667' }),
  r('M&T Bank', 'https://www.mtb.com', 'banking', '#007A4D', 'One M&T Plaza|Buffalo|NY|14203', { phone: '1-800-724-2440' }),
  r('Ally Bank', 'https://www.ally.com', 'banking', '#650360', '500 Woodward Avenue|Detroit|MI|48226', {
    logon: 'https://secure.ally.com',
    phone: '1-877-247-2559',
  }),
  r('USAA', 'https://www.usaa.com', 'banking', '#12395A', '9800 Fredericksburg Road|San Antonio|TX|78288', {
    logon: 'https://www.usaa.com/my/logon',
    phone: '1-800-531-8722',
    oauth: true,
  }),
  r('Navy Federal Credit Union', 'https://www.navyfederal.org', 'banking', '#003865', '820 Follin Lane SE|Vienna|VA|22180', {
    logon: 'https://digitalomni.navyfederal.org/signin',
    phone: '1-888-842-6328',
  }),
  r('Charles Schwab', 'https://www.schwab.com', 'wealth', '#00A0DF', '3000 Schwab Way|Westlake|TX|76262', {
    logon: 'https://client.schwab.com/Login/SignOn/CustomerCenterLogin.aspx',
    phone: '1-800-435-4000',
    oauth: true,
  }),
  r('Fidelity Investments', 'https://www.fidelity.com', 'wealth', '#368727', '245 Summer Street|Boston|MA|02210', {
    logon: 'https://digital.fidelity.com/prgw/digital/login/full-page',
    phone: '1-800-343-3548',
    oauth: true,
  }),
  r('Vanguard', 'https://investor.vanguard.com', 'wealth', '#96151D', '100 Vanguard Boulevard|Malvern|PA|19355', {
    logon: 'https://logon.vanguard.com/logon',
    phone: '1-877-662-7447',
  }),
  r('American Express', 'https://www.americanexpress.com', 'creditCards', '#006FCF', '200 Vesey Street|New York|NY|10285', {
    logon: 'https://www.americanexpress.com/en-us/account/login',
    phone: '1-800-528-4800',
    oauth: true,
  }),
  r('Discover', 'https://www.discover.com', 'creditCards', '#FF6000', '2500 Lake Cook Road|Riverwoods|IL|60015', {
    logon: 'https://portal.discover.com/customersvcs/universalLogin/ac_main',
    phone: '1-800-347-2683',
    oauth: true,
  }),
  r('Goldman Sachs Marcus', 'https://www.marcus.com', 'banking', '#0E1A2B', '200 West Street|New York|NY|10282', { phone: '1-844-627-2871' }),
  r('Synchrony Bank', 'https://www.synchronybank.com', 'banking', '#FBC600', '777 Long Ridge Road|Stamford|CT|06902'),
  r('First Citizens Bank', 'https://www.firstcitizens.com', 'banking', '#00563F', '4300 Six Forks Road|Raleigh|NC|27609'),
  r('BMO Bank', 'https://www.bmo.com/en-us', 'banking', '#0079C1', '320 South Canal Street|Chicago|IL|60606'),
  r('Santander Bank', 'https://www.santanderbank.com', 'banking', '#EC0000', '75 State Street|Boston|MA|02109'),
  r('Comerica Bank', 'https://www.comerica.com', 'banking', '#003DA5', '1717 Main Street|Dallas|TX|75201'),
  r('Zions Bank', 'https://www.zionsbank.com', 'banking', '#004B87', 'One South Main Street|Salt Lake City|UT|84133'),
  r('Frost Bank', 'https://www.frostbank.com', 'banking', '#00205B', '111 West Houston Street|San Antonio|TX|78205'),
  r('Webster Bank', 'https://www.websterbank.com', 'banking', '#003B2C', '200 Elm Street|Stamford|CT|06902'),
  r('East West Bank', 'https://www.eastwestbank.com', 'banking', '#00843D', '135 North Los Robles Avenue|Pasadena|CA|91101'),
  r('Associated Bank', 'https://www.associatedbank.com', 'banking', '#00843D', '433 Main Street|Green Bay|WI|54301'),
  r('BOK Financial', 'https://www.bokfinancial.com', 'banking', '#00467F', 'One Williams Center|Tulsa|OK|74172'),
  r('Synovus Bank', 'https://www.synovus.com', 'banking', '#002D62', '1111 Bay Avenue|Columbus|GA|31901'),
  r('First Horizon Bank', 'https://www.firsthorizon.com', 'banking', '#002F6C', '165 Madison Avenue|Memphis|TN|38103'),
  r('Old National Bank', 'https://www.oldnational.com', 'banking', '#00205B', 'One Main Street|Evansville|IN|47708'),
  r('Valley National Bank', 'https://www.valley.com', 'banking', '#00A3E0', '1455 Valley Road|Wayne|NJ|07470'),
  r('Wintrust Bank', 'https://www.wintrust.com', 'banking', '#003A70', '9700 West Higgins Road|Rosemont|IL|60018'),
  r('UMB Bank', 'https://www.umb.com', 'banking', '#00A3AD', '1010 Grand Boulevard|Kansas City|MO|64106'),
  r('Commerce Bank', 'https://www.commercebank.com', 'banking', '#007A33', '1000 Walnut Street|Kansas City|MO|64106'),
  r('Arvest Bank', 'https://www.arvest.com', 'banking', '#00587C', '75 North East Avenue|Fayetteville|AR|72701'),
  r('Hancock Whitney', 'https://www.hancockwhitney.com', 'banking', '#00563F', 'One Hancock Plaza|Gulfport|MS|39501'),
  r('Cadence Bank', 'https://cadencebank.com', 'banking', '#002855', '201 South Spring Street|Tupelo|MS|38804'),
  r('Pinnacle Bank', 'https://www.pnfp.com', 'banking', '#002B49', '150 Third Avenue South|Nashville|TN|37201'),
  r('Simmons Bank', 'https://www.simmonsbank.com', 'banking', '#00A5DB', '501 Main Street|Pine Bluff|AR|71601'),
  r('Umpqua Bank', 'https://www.umpquabank.com', 'banking', '#2E7D32', 'One SW Columbia Street|Portland|OR|97204'),
  r('Bank of Hawaii', 'https://www.boh.com', 'banking', '#002F87', '130 Merchant Street|Honolulu|HI|96813'),
  r('First Hawaiian Bank', 'https://www.fhb.com', 'banking', '#00539B', '999 Bishop Street|Honolulu|HI|96813'),
  r('Popular Bank', 'https://www.popularbank.com', 'banking', '#E4002B', '85 Broad Street|New York|NY|10004'),
  r('Axos Bank', 'https://www.axosbank.com', 'banking', '#1C3F94', '4350 La Jolla Village Drive|San Diego|CA|92122'),
  r('SoFi', 'https://www.sofi.com', 'banking', '#00A2C7', '234 First Street|San Francisco|CA|94105', { phone: '1-855-456-7634' }),
  r('Chime', 'https://www.chime.com', 'banking', '#1EC677', '101 California Street|San Francisco|CA|94111', { phone: '1-844-244-6363' }),
  r('Varo Bank', 'https://www.varomoney.com', 'banking', '#5A3FD9', '222 Kearny Street|San Francisco|CA|94108'),
  r('Discover Bank', 'https://www.discover.com/online-banking', 'banking', '#FF6000', '502 East Market Street|Greenwood|DE|19950'),
  r('Barclays US', 'https://www.banking.barclaysus.com', 'creditCards', '#00AEEF', '125 South West Street|Wilmington|DE|19801'),
  r('Bread Financial', 'https://www.breadfinancial.com', 'creditCards', '#5E2D91', '3095 Loyalty Circle|Columbus|OH|43219'),
  r('Credit One Bank', 'https://www.creditonebank.com', 'creditCards', '#003DA5', '6801 South Cimarron Road|Las Vegas|NV|89113'),
  r('Capital One Credit Cards', 'https://www.capitalone.com/credit-cards', 'creditCards', '#004977', '1680 Capital One Drive|McLean|VA|22102', {
    phone: '1-800-227-4825',
    oauth: true,
  }),
  r('Citi Cards', 'https://www.citi.com/credit-cards', 'creditCards', '#056DAE', '388 Greenwich Street|New York|NY|10013', {
    phone: '1-800-950-5114',
    oauth: true,
  }),
  r('Chase Credit Cards', 'https://creditcards.chase.com', 'creditCards', '#117ACA', '270 Park Avenue|New York|NY|10017', {
    phone: '1-800-432-3117',
    oauth: true,
  }),
  r('Apple Card', 'https://card.apple.com', 'creditCards', '#1D1D1F', '200 West Street|New York|NY|10282'),

  // Credit unions
  r("State Employees' Credit Union", 'https://www.ncsecu.org', 'banking', '#003B71', '119 North Salisbury Street|Raleigh|NC|27603', {
    phone: '1-888-732-8562',
  }),
  r('PenFed Credit Union', 'https://www.penfed.org', 'banking', '#002F6C', '7940 Jones Branch Drive|McLean|VA|22102', { phone: '1-800-247-5626' }),
  r('SchoolsFirst Federal Credit Union', 'https://www.schoolsfirstfcu.org', 'banking', '#0055A5', '2115 North Broadway|Santa Ana|CA|92706'),
  r('BECU', 'https://www.becu.org', 'banking', '#0066B3', '12770 Gateway Drive South|Tukwila|WA|98168', { phone: '1-800-233-2328' }),
  r('Golden 1 Credit Union', 'https://www.golden1.com', 'banking', '#B8860B', '8945 Cal Center Drive|Sacramento|CA|95826', { phone: '1-877-465-3361' }),
  r('Alliant Credit Union', 'https://www.alliantcreditunion.org', 'banking', '#005DAA', '11545 West Touhy Avenue|Chicago|IL|60666', {
    phone: '1-800-328-1935',
  }),
  r('America First Credit Union', 'https://www.americafirst.com', 'banking', '#002F6C', '1344 West 4675 South|Riverdale|UT|84405'),
  r('Mountain America Credit Union', 'https://www.macu.com', 'banking', '#0A3A6B', '9800 South Monroe Street|Sandy|UT|84070'),
  r('Suncoast Credit Union', 'https://www.suncoastcreditunion.com', 'banking', '#F47B20', '6801 East Hillsborough Avenue|Tampa|FL|33610'),
  r('Randolph-Brooks Federal Credit Union', 'https://www.rbfcu.org', 'banking', '#002B5C', '1 Randolph Brooks Parkway|Live Oak|TX|78233'),
  r('Security Service Federal Credit Union', 'https://www.ssfcu.org', 'banking', '#00558C', '15000 Intrepid Drive|San Antonio|TX|78232'),
  r('First Tech Federal Credit Union', 'https://www.firsttechfed.com', 'banking', '#00A3AD', '3408 Hillview Avenue|Palo Alto|CA|94304'),
  r('Digital Federal Credit Union', 'https://www.dcu.org', 'banking', '#0072CE', '220 Donald Lynch Boulevard|Marlborough|MA|01752'),
  r('VyStar Credit Union', 'https://www.vystarcu.org', 'banking', '#00529B', '76 South Laura Street|Jacksonville|FL|32202'),
  r('Patelco Credit Union', 'https://www.patelco.org', 'banking', '#E35205', '3 Park Place|Dublin|CA|94568'),
  r('Lake Michigan Credit Union', 'https://www.lmcu.org', 'banking', '#0057A8', '5540 Glenwood Hills Parkway SE|Grand Rapids|MI|49512'),
  r('Star One Credit Union', 'https://www.starone.org', 'banking', '#00205B', '1306 Bordeaux Drive|Sunnyvale|CA|94089'),
  r('Desert Financial Credit Union', 'https://www.desertfinancial.com', 'banking', '#B0452B', '148 North 48th Street|Phoenix|AZ|85034'),
  r('Global Credit Union', 'https://www.globalcu.org', 'banking', '#003DA5', '1520 West Third Avenue|Spokane|WA|99201'),
  r('Redstone Federal Credit Union', 'https://www.redfcu.org', 'banking', '#C8102E', '220 Wynn Drive NW|Huntsville|AL|35893'),
  r('OnPoint Community Credit Union', 'https://www.onpointcu.com', 'banking', '#00843D', '2701 NW Vaughn Street|Portland|OR|97210'),
  r('Bethpage Federal Credit Union', 'https://www.bethpagefcu.com', 'banking', '#003DA5', '899 South Oyster Bay Road|Bethpage|NY|11714'),
  r('Teachers Federal Credit Union', 'https://www.teachersfcu.org', 'banking', '#00338D', '2410 North Ocean Avenue|Farmingville|NY|11738'),
  r('GreenState Credit Union', 'https://www.greenstate.org', 'banking', '#00833E', '2355 Landon Road|North Liberty|IA|52317'),
  r('Wings Financial Credit Union', 'https://www.wingsfinancial.com', 'banking', '#003DA5', '14985 Glazier Avenue|Apple Valley|MN|55124'),
  r('Delta Community Credit Union', 'https://www.deltacommunitycu.com', 'banking', '#C8102E', '1025 Virginia Avenue|Atlanta|GA|30354'),
  r('Hudson Valley Credit Union', 'https://www.hvcu.org', 'banking', '#005596', '159 Barnegat Road|Poughkeepsie|NY|12601'),
  r('Affinity Plus Federal Credit Union', 'https://www.affinityplus.org', 'banking', '#00A9E0', '175 West Lafayette Frontage Road|Saint Paul|MN|55107'),
  r('Veridian Credit Union', 'https://www.veridiancu.org', 'banking', '#00857C', '1827 Ansborough Avenue|Waterloo|IA|50701'),
  r('Space Coast Credit Union', 'https://www.sccu.com', 'banking', '#003DA5', '8045 North Wickham Road|Melbourne|FL|32940'),
  r('Texas Dow Employees Credit Union', 'https://www.tdecu.org', 'banking', '#0072CE', '1001 FM 2004|Lake Jackson|TX|77566'),
  r('Ent Credit Union', 'https://www.ent.com', 'banking', '#00843D', '7250 Campus Drive|Colorado Springs|CO|80920'),

  // Brokerages and investment services
  r('E*TRADE', 'https://us.etrade.com', 'wealth', '#6633CC', '671 North Glebe Road|Arlington|VA|22203', {
    logon: 'https://us.etrade.com/etx/pxy/login',
    phone: '1-800-387-2331',
  }),
  r('Merrill Edge', 'https://www.merrilledge.com', 'wealth', '#012169', 'One Bryant Park|New York|NY|10036', {
    logon: 'https://olui2.fs.ml.com/login/signin.aspx',
    phone: '1-800-637-7455',
    oauth: true,
  }),
  r('Morgan Stanley', 'https://www.morganstanley.com', 'wealth', '#002B51', '1585 Broadway|New York|NY|10036', { phone: '1-888-454-3965' }),
  r('Robinhood', 'https://robinhood.com', 'wealth', '#00C805', '85 Willow Road|Menlo Park|CA|94025', { logon: 'https://robinhood.com/login' }),
  r('Edward Jones', 'https://www.edwardjones.com', 'wealth', '#FFCC00', '12555 Manchester Road|St. Louis|MO|63131', { phone: '1-800-441-2357' }),
  r('Interactive Brokers', 'https://www.interactivebrokers.com', 'wealth', '#D81222', 'One Pickwick Plaza|Greenwich|CT|06830', { phone: '1-877-442-2757' }),
  r('Ameriprise Financial', 'https://www.ameriprise.com', 'wealth', '#003DA5', '707 Second Avenue South|Minneapolis|MN|55474'),
  r('Raymond James', 'https://www.raymondjames.com', 'wealth', '#000000', '880 Carillon Parkway|St. Petersburg|FL|33716'),
  r('LPL Financial', 'https://www.lpl.com', 'wealth', '#003B5C', '4707 Executive Drive|San Diego|CA|92121'),
  r('Betterment', 'https://www.betterment.com', 'wealth', '#1A7CF9', '250 Greenwich Street|New York|NY|10007'),
  r('Wealthfront', 'https://www.wealthfront.com', 'wealth', '#4840BB', '261 Hamilton Avenue|Palo Alto|CA|94301'),
  r('Acorns', 'https://www.acorns.com', 'wealth', '#4CB944', '5300 California Avenue|Irvine|CA|92617'),
  r('Stash', 'https://www.stash.com', 'wealth', '#6C2BD9', '500 Seventh Avenue|New York|NY|10018'),
  r('M1 Finance', 'https://m1.com', 'wealth', '#0D2C54', '200 North LaSalle Street|Chicago|IL|60601'),
  r('Webull', 'https://www.webull.com', 'wealth', '#0F5BFF', '44 Wall Street|New York|NY|10005'),
  r('J.P. Morgan Self-Directed Investing', 'https://www.chase.com/personal/investments', 'wealth', '#117ACA', '270 Park Avenue|New York|NY|10017', {
    oauth: true,
  }),
  r('Wells Fargo Advisors', 'https://www.wellsfargoadvisors.com', 'wealth', '#D71E28', 'One North Jefferson Avenue|St. Louis|MO|63103', { oauth: true }),

  // Workplace retirement
  r('Empower', 'https://www.empower.com', 'retirement', '#1F3B73', '8515 East Orchard Road|Greenwood Village|CO|80111', {
    logon: 'https://participant.empower-retirement.com/participant/#/login',
    phone: '1-855-756-4738',
  }),
  r('Fidelity NetBenefits', 'https://nb.fidelity.com', 'retirement', '#368727', '245 Summer Street|Boston|MA|02210', { oauth: true }),
  r('Principal Financial Group', 'https://www.principal.com', 'retirement', '#0061A0', '711 High Street|Des Moines|IA|50392', { phone: '1-800-547-7754' }),
  r('TIAA', 'https://www.tiaa.org', 'retirement', '#0A5BA8', '730 Third Avenue|New York|NY|10017', { phone: '1-800-842-2252' }),
  r('Voya Financial', 'https://www.voya.com', 'retirement', '#F26522', '230 Park Avenue|New York|NY|10169'),
  r('Vanguard Retirement Plans', 'https://ownyourfuture.vanguard.com', 'retirement', '#96151D', '100 Vanguard Boulevard|Malvern|PA|19355'),
  r('John Hancock Retirement', 'https://www.johnhancock.com/retirement', 'retirement', '#00A758', '200 Berkeley Street|Boston|MA|02116'),
  r('Transamerica Retirement', 'https://www.transamerica.com', 'retirement', '#D3002D', '6400 C Street SW|Cedar Rapids|IA|52499'),
  r('Nationwide Retirement', 'https://www.nationwide.com', 'retirement', '#0047BB', 'One Nationwide Plaza|Columbus|OH|43215'),
  r('Lincoln Financial Group', 'https://www.lincolnfinancial.com', 'retirement', '#8C1D40', '150 North Radnor-Chester Road|Radnor|PA|19087'),
  r('MassMutual', 'https://www.massmutual.com', 'retirement', '#002F6C', '1295 State Street|Springfield|MA|01111'),
  r('Prudential Retirement', 'https://www.prudential.com', 'retirement', '#001E60', '751 Broad Street|Newark|NJ|07102'),
  r('ADP Retirement Services', 'https://www.adp.com', 'retirement', '#D0271D', 'One ADP Boulevard|Roseland|NJ|07068'),
  r('Paychex Retirement Services', 'https://www.paychex.com', 'retirement', '#004B8D', '911 Panorama Trail South|Rochester|NY|14625'),

  // Mortgages and loans
  r('Rocket Mortgage', 'https://www.rocketmortgage.com', 'loans', '#C8102E', '1050 Woodward Avenue|Detroit|MI|48226'),
  r('Mr. Cooper', 'https://www.mrcooper.com', 'loans', '#0059B3', '8950 Cypress Waters Boulevard|Coppell|TX|75019', { phone: '1-888-480-2432' }),
  r('PennyMac', 'https://www.pennymac.com', 'loans', '#00467F', '3043 Townsgate Road|Westlake Village|CA|91361'),
  r('loanDepot', 'https://www.loandepot.com', 'loans', '#004B87', '6561 Irvine Center Drive|Irvine|CA|92618'),
  r('Freedom Mortgage', 'https://www.freedommortgage.com', 'loans', '#0033A0', '951 West Yamato Road|Boca Raton|FL|33431'),
  r('Sallie Mae', 'https://www.salliemae.com', 'loans', '#0055A5', '300 Continental Drive|Newark|DE|19713', { phone: '1-800-472-5543' }),
  r('Navient', 'https://www.navient.com', 'loans', '#00A3E0', '123 Justison Street|Wilmington|DE|19801', { phone: '1-800-722-1300' }),
  r('Nelnet', 'https://www.nelnet.com', 'loans', '#0072CE', '121 South 13th Street|Lincoln|NE|68508', { phone: '1-888-486-4722' }),
  r('MOHELA', 'https://www.mohela.com', 'loans', '#003865', '633 Spirit Drive|Chesterfield|MO|63005'),
  r('LendingClub Bank', 'https://www.lendingclub.com', 'loans', '#00A3AD', '595 Market Street|San Francisco|CA|94105'),

  // Insurance
  r('State Farm', 'https://www.statefarm.com', 'insurance', '#D62311', 'One State Farm Plaza|Bloomington|IL|61710', { phone: '1-800-782-8332' }),
  r('Northwestern Mutual', 'https://www.northwesternmutual.com', 'insurance', '#0046AD', '720 East Wisconsin Avenue|Milwaukee|WI|53202'),
  r('New York Life', 'https://www.newyorklife.com', 'insurance', '#00529B', '51 Madison Avenue|New York|NY|10010'),
  r('MetLife', 'https://www.metlife.com', 'insurance', '#0090DA', '200 Park Avenue|New York|NY|10166'),
  r('Allstate', 'https://www.allstate.com', 'insurance', '#0033A0', '3100 Sanders Road|Northbrook|IL|60062'),

  // Canada
  r('RBC Royal Bank', 'https://www.rbcroyalbank.com', 'banking', '#005DAA', '200 Bay Street|Toronto|ON|M5J 2J5', {
    logon: 'https://secure.royalbank.com/statics/login-service-ui/index',
    phone: '1-800-769-2511',
  }),
  r('TD Canada Trust', 'https://www.td.com/ca/en/personal-banking', 'banking', '#34A853', '66 Wellington Street West|Toronto|ON|M5K 1A2', {
    logon: 'https://easyweb.td.com',
    phone: '1-866-222-3456',
  }),
  r('Scotiabank', 'https://www.scotiabank.com', 'banking', '#EC111A', '40 Temperance Street|Toronto|ON|M5H 0B4', {
    logon: 'https://auth.scotiaonline.scotiabank.com/online',
    phone: '1-800-472-6842',
  }),
  r('BMO Bank of Montreal', 'https://www.bmo.com', 'banking', '#0079C1', '100 King Street West|Toronto|ON|M5X 1A1', {
    logon: 'https://www1.bmo.com/banking/digital/login',
    phone: '1-877-225-5266',
  }),
  r('CIBC', 'https://www.cibc.com', 'banking', '#C41F3E', '81 Bay Street|Toronto|ON|M5J 0E7', {
    logon: 'https://www.cibconline.cibc.com/ebm-resources/online-banking/client/index.html#/auth/signon',
    phone: '1-800-465-2422',
  }),
  r('National Bank of Canada', 'https://www.nbc.ca', 'banking', '#E41C23', '800 Saint-Jacques Street|Montreal|QC|H3B 1Y9', { phone: '1-888-483-5628' }),
  r('Desjardins', 'https://www.desjardins.com', 'banking', '#00874E', '100 rue des Commandeurs|Levis|QC|G6V 7N5', {
    logon: 'https://accweb.mouv.desjardins.com/identifiantunique/identification',
    phone: '1-800-224-7737',
  }),
  r('Tangerine', 'https://www.tangerine.ca', 'banking', '#F28500', '3389 Steeles Avenue East|Toronto|ON|M2H 3S8', { phone: '1-888-826-4374' }),
  r('Simplii Financial', 'https://www.simplii.com', 'banking', '#D5006D', '81 Bay Street|Toronto|ON|M5J 0E7'),
  r('EQ Bank', 'https://www.eqbank.ca', 'banking', '#5C2D91', '30 St. Clair Avenue West|Toronto|ON|M4V 3A1'),
  r('ATB Financial', 'https://www.atb.com', 'banking', '#0072BC', '10020 100 Street NW|Edmonton|AB|T5J 0N3'),
  r('Laurentian Bank', 'https://www.laurentianbank.ca', 'banking', '#00205B', '1360 Rene-Levesque Boulevard West|Montreal|QC|H3G 0E5'),
  r('Vancity', 'https://www.vancity.com', 'banking', '#DA291C', '183 Terminal Avenue|Vancouver|BC|V6A 4G2'),
  r('Coast Capital Savings', 'https://www.coastcapitalsavings.com', 'banking', '#00A3AD', '9900 King George Boulevard|Surrey|BC|V3T 0K7'),
  r('Meridian Credit Union', 'https://www.meridiancu.ca', 'banking', '#00338D', '75 Corporate Park Drive|St. Catharines|ON|L2S 3W3'),
  r('Servus Credit Union', 'https://www.servus.ca', 'banking', '#00A9CE', '151 Karl Clark Road|Edmonton|AB|T6N 1H5'),
  r('Alterna Savings', 'https://www.alterna.ca', 'banking', '#E35205', '319 McRae Avenue|Ottawa|ON|K1Z 0B9'),
  r('Manulife Bank', 'https://www.manulifebank.ca', 'banking', '#00A758', '500 King Street North|Waterloo|ON|N2J 4C6'),
  r('PC Financial', 'https://www.pcfinancial.ca', 'creditCards', '#231F20', '500 Lake Shore Boulevard West|Toronto|ON|M5V 1A7'),
  r('Wealthsimple', 'https://www.wealthsimple.com', 'wealth', '#32302F', '80 Spadina Avenue|Toronto|ON|M5V 2J4'),
  r('Questrade', 'https://www.questrade.com', 'wealth', '#00A88F', '5700 Yonge Street|Toronto|ON|M2M 4K2'),
  r('Sun Life Financial', 'https://www.sunlife.ca', 'retirement', '#F9B000', '1 York Street|Toronto|ON|M5J 0B6'),

  // Merged away: kept so old links resolve, with newInstitutionId pointing at the successor
  r('SunTrust Bank', 'https://www.suntrust.com', 'banking', '#00447C', '303 Peachtree Street NE|Atlanta|GA|30308', { mergedInto: 'Truist' }),
  r('BB&T', 'https://www.bbt.com', 'banking', '#8A1538', '200 West Second Street|Winston-Salem|NC|27101', { mergedInto: 'Truist' }),
  r('TD Ameritrade', 'https://www.tdameritrade.com', 'wealth', '#3CB548', '200 South 108th Avenue|Omaha|NE|68154', { mergedInto: 'Charles Schwab' }),
  r('First Republic Bank', 'https://www.firstrepublic.com', 'banking', '#003B5C', '111 Pine Street|San Francisco|CA|94111', { mergedInto: 'Chase' }),
  r('Silicon Valley Bank', 'https://www.svb.com', 'banking', '#00A9E0', '3003 Tasman Drive|Santa Clara|CA|95054', { mergedInto: 'First Citizens Bank' }),
  r('MUFG Union Bank', 'https://www.unionbank.com', 'banking', '#E60012', '400 California Street|San Francisco|CA|94104', { mergedInto: 'U.S. Bank' }),
  r("People's United Bank", 'https://www.peoples.com', 'banking', '#00338D', '850 Main Street|Bridgeport|CT|06604', { mergedInto: 'M&T Bank' }),
  r('BBVA USA', 'https://www.bbvausa.com', 'banking', '#004481', '15 South 20th Street|Birmingham|AL|35233', { mergedInto: 'PNC Bank' }),
  r('HSBC Bank Canada', 'https://www.hsbc.ca', 'banking', '#DB0011', '885 West Georgia Street|Vancouver|BC|V6C 3E9', { mergedInto: 'RBC Royal Bank' }),
];
