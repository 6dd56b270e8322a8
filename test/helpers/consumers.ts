import type { TestContext, TestPartner } from './context.js';

/** Where consumers are read and modified by id. */
export const CONSUMER = '/decisioning/v1/consumers';

/** Where a customer's consumer is created and read. */
export const customerConsumerUrl = (customerId: string) => `/decisioning/v1/customers/${customerId}/consumer`;

/** A consumer with every field, after the reference's example of all values. */
export function consumerBody() {
  return {
    firstName: 'John',
    lastName: 'Doe',
    address: '434 W Ascension Way',
    city: 'Murray',
    state: 'UT',
    zip: '84123',
    phone: '1-801-984-4200',
    ssn: '989898989',
    birthday: { year: 1989, month: 12, dayOfMonth: 13 },
    email: 'someone@example.com',
    suffix: 'PhD',
    endUser: {
      name: 'Acme Lending',
      address: '434 W Ascension Way',
      city: 'Murray',
      state: 'UT',
      zip: '84123',
      phone: '1-801-984-4201',
      email: 'lending@example.com',
      url: 'example.com',
    },
  };
}

/** Creates the customer's consumer through the API (consumerBody by default) and returns its id. */
export async function createConsumer(
  ctx: TestContext,
  partner: TestPartner,
  customerId: string,
  body: Record<string, unknown> = consumerBody(),
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: customerConsumerUrl(customerId),
    headers: { ...partner.headers, 'content-type': 'application/json' },
    payload: JSON.stringify(body),
  });
  if (res.statusCode !== 201) throw new Error(`creating a consumer failed: ${res.statusCode} ${res.body}`);
  return res.json<{ id: string }>().id;
}
