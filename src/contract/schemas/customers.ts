import Type from 'typebox';
import { RequiredString } from './common.js';

const USERNAME_DESCRIPTION =
  "6 to 255 characters: ASCII letters, digits and ! @ . # $ % & * _ - +. Unique among the partner's customers. An e-mail address is discouraged.";

export const NewCustomer = Type.Object(
  {
    username: RequiredString({ description: USERNAME_DESCRIPTION, examples: ['customerusername1'] }),
    firstName: Type.Optional(Type.String({ description: 'Optional', examples: ['John'] })),
    lastName: Type.Optional(Type.String({ description: 'Optional', examples: ['Smith'] })),
    phone: Type.Optional(Type.String({ maxLength: 20, pattern: '^[0-9+()\\-. ]*$', description: 'Optional phone number', examples: ['1-801-555-0100'] })),
    email: Type.Optional(
      Type.String({
        maxLength: 255,
        pattern: '^$|^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$',
        description: 'Optional e-mail address',
        examples: ['john.smith@example.com'],
      }),
    ),
    applicationId: Type.Optional(Type.String({ maxLength: 255, description: 'Optional registered application id, stored and returned as given' })),
  },
  { xml: { name: 'customer' } },
);

export const CustomerUpdate = Type.Object(
  {
    firstName: Type.Optional(Type.String({ description: 'New first name; blank clears it', examples: ['John'] })),
    lastName: Type.Optional(Type.String({ description: 'New last name; blank clears it', examples: ['Smith'] })),
  },
  { xml: { name: 'customer' } },
);

export const CreatedCustomerV1 = Type.Object(
  {
    id: Type.String({ examples: ['1005061234'] }),
    createdDate: Type.Integer({ description: 'Epoch seconds' }),
  },
  { xml: { name: 'customer' } },
);

export const CreatedCustomer = Type.Object(
  {
    id: Type.String({ examples: ['1005061234'] }),
    username: Type.String({ examples: ['customerusername1'] }),
    createdDate: Type.Integer({ description: 'Epoch seconds' }),
  },
  { xml: { name: 'customer' } },
);

const customerFields = {
  id: Type.String({ examples: ['1005061234'] }),
  username: Type.String({ examples: ['customerusername1'] }),
  firstName: Type.Optional(Type.String()),
  lastName: Type.Optional(Type.String()),
  phone: Type.Optional(Type.String()),
  email: Type.Optional(Type.String()),
  type: Type.Union([Type.Literal('testing'), Type.Literal('active')], {
    description: 'testing: test institutions only; active: a billable customer (production plan)',
  }),
  createdDate: Type.Integer({ description: 'Epoch seconds' }),
  lastModifiedDate: Type.Integer({ description: 'Epoch seconds' }),
  applicationId: Type.Optional(Type.String()),
};

export const Customer = Type.Object(customerFields, { xml: { name: 'customer' } });

export const CustomerList = Type.Object(
  {
    found: Type.Integer({ description: 'How many customers match in all' }),
    displaying: Type.Integer({ description: 'How many customers this response has' }),
    moreAvailable: Type.Boolean({ description: 'true when more customers follow: ask again with start increased by limit' }),
    customers: Type.Array(Type.Object(customerFields)),
  },
  { xml: { name: 'root' } },
);

export const CustomerIdParams = Type.Object({ customerId: Type.String({ description: 'Customer id', examples: ['1005061234'] }) });
