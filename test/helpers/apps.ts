/** A small SVG, Base64, as an app registration's image. */
export const APP_IMAGE = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>').toString('base64');

/** A valid Register App body for `appName`, with `extra` fields over it. */
export const appRegistration = (appName: string, extra: Record<string, unknown> = {}) => ({
  appDescription: 'Budgeting made easy',
  appName,
  appUrl: 'https://budget.example/',
  ownerAddressLine1: '434 W Ascension Way',
  ownerAddressLine2: '',
  ownerCity: 'Murray',
  ownerCountry: 'USA',
  ownerName: 'Budget Inc.',
  ownerPostalCode: '84123',
  ownerState: 'UT',
  image: APP_IMAGE,
  ...extra,
});
