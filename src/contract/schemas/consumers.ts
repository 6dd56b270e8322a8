import Type from 'typebox';
import { RequiredString } from './common.js';

/**
 * Consumers (docs/consumers.md): the person a customer stands for, as reports name them. Formats (SSN, phone, e-mail,
 * ZIP code, state, birthday) are checked by the consumers service, which names the field in a 400 with code 10100;
 * the schemas only give the types.
 */

const text = (description: string, example: string) => Type.String({ description, examples: [example] });

export const Birthday = Type.Object(
  {
    year: Type.Optional(Type.Integer({ description: 'Four-digit year', examples: [1989] })),
    month: Type.Optional(Type.Integer({ description: 'Month, 1 for January', examples: [8] })),
    dayOfMonth: Type.Optional(Type.Integer({ description: 'Day of the month', examples: [13] })),
  },
  { description: 'A birth date: a real calendar day, from 1900 to today. All three parts are needed when one is given.' },
);

export const ConsumerEndUser = Type.Object(
  {
    name: RequiredString({ description: 'The end user of the reports (when not the partner)', examples: ['Acme Lending'] }),
    address: RequiredString({ description: 'Address line 1', examples: ['434 W Ascension Way'] }),
    city: RequiredString({ examples: ['Murray'] }),
    state: RequiredString({ description: 'Two-letter US state code', examples: ['UT'] }),
    zip: RequiredString({ description: 'ZIP code: 5 digits or ZIP+4', examples: ['84123'] }),
    phone: RequiredString({ description: 'Up to 15 characters: digits, spaces and + ( ) - .', examples: ['1-801-984-4200'] }),
    email: Type.Optional(text('E-mail address', 'someone@example.com')),
    url: Type.Optional(text('The end user’s web address, 2 to 999 characters', 'example.com')),
  },
  { description: 'The reseller’s end user of the consumer’s reports, when that is another entity than the partner' },
);

const personFields = {
  address: Type.Optional(text('Street address', '434 W Ascension Way')),
  city: Type.Optional(text('City', 'Murray')),
  zip: Type.Optional(text('ZIP code: 5 digits or ZIP+4', '84123')),
  phone: Type.Optional(text('Up to 15 characters: digits, spaces and + ( ) - . Either phone or email (or both) is required.', '1-801-984-4200')),
  ssn: Type.Optional(text('Full Social Security number, 9 digits with or without hyphens. Either ssn or birthday (or both) is required.', '999-99-9999')),
  birthday: Type.Optional(Birthday),
  email: Type.Optional(text('E-mail address. Either phone or email (or both) is required.', 'myname@example.com')),
  suffix: Type.Optional(text('Generational or academic suffix', 'PhD')),
  endUser: Type.Optional(ConsumerEndUser),
};

export const NewConsumer = Type.Object(
  {
    firstName: RequiredString({ description: 'First name', examples: ['John'] }),
    lastName: RequiredString({ description: 'Last name', examples: ['Smith'] }),
    state: RequiredString({ description: 'Two-letter US state code', examples: ['UT'] }),
    ...personFields,
  },
  { xml: { name: 'consumer' } },
);

export const ConsumerUpdate = Type.Object(
  {
    firstName: Type.Optional(text('First name; cannot be blank', 'John')),
    lastName: Type.Optional(text('Last name; cannot be blank', 'Smith')),
    state: Type.Optional(text('Two-letter US state code; cannot be blank', 'UT')),
    ...personFields,
  },
  {
    xml: { name: 'consumer' },
    description: 'The fields to change; others are left as they are. A blank optional field clears it, as long as ssn or birthday and phone or email remain.',
  },
);

const ConsumerId = Type.String({ description: 'Consumer id: 32 hexadecimal digits', examples: ['0bf46322c167b562e6cbed9d40e19a4c'] });
const CustomerNumber = Type.Integer({ description: 'The customer the consumer belongs to', examples: [1005061234] });
const CreatedDate = Type.Integer({ description: 'Epoch seconds', examples: [1607450357] });

export const CreatedConsumer = Type.Object({ id: ConsumerId, createdDate: CreatedDate, customerId: CustomerNumber }, { xml: { name: 'consumer' } });

const answered = (description: string, example: string) => Type.String({ description: `${description}; empty when not given`, examples: [example] });

export const Consumer = Type.Object(
  {
    id: ConsumerId,
    firstName: Type.String({ examples: ['John'] }),
    lastName: Type.String({ examples: ['Smith'] }),
    customerId: CustomerNumber,
    address: answered('Street address', '434 W Ascension Way'),
    city: answered('City', 'Murray'),
    state: Type.String({ description: 'Two-letter US state code', examples: ['UT'] }),
    zip: answered('ZIP code', '84123'),
    phone: answered('Phone number', '1-801-984-4200'),
    ssn: answered('The last four digits of the SSN (the full number is never answered)', '9999'),
    birthday: Type.Object(Birthday.properties, { description: 'The birth date; an empty object when not given' }),
    email: answered('E-mail address', 'myname@example.com'),
    createdDate: CreatedDate,
    suffix: Type.Optional(Type.String({ examples: ['PhD'] })),
    endUser: Type.Optional(ConsumerEndUser),
  },
  { xml: { name: 'consumer' } },
);

export const ConsumerIdParams = Type.Object({ consumerId: ConsumerId });
