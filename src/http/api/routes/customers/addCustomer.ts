import { toCreatedCustomerRecord } from '../../../../modules/customers/records.js';
import { createCustomer } from '../../../../modules/customers/service.js';
import type { CustomerType } from '../../../../modules/customers/table.js';
import type { Runtime } from '../../../../platform/dependencies.js';
import type { App } from '../../../app-types.js';
import { errorResponses } from '../../../../contract/schemas/common.js';
import { CreatedCustomer, CreatedCustomerV1, NewCustomer } from '../../../../contract/schemas/customers.js';

const RULES =
  "The username must be 6 to 255 characters of ASCII letters, digits and ! @ . # $ % & * _ - + (400, code 110039, otherwise) and unique among the partner's customers (409, code 110002).";

interface Variant {
  path: string;
  operationId: string;
  type: CustomerType;
  withUsername: boolean;
  /** An older version published clients still call, with the same behaviour as its current twin. */
  deprecated?: boolean;
  summary: string;
  description: string;
}

const VARIANTS: Variant[] = [
  {
    path: '/aggregation/v1/customers/testing',
    operationId: 'AddTestingCustomerV1',
    type: 'testing',
    withUsername: false,
    summary: 'Add testing customer (v1)',
    description: `Enrols a testing customer, who can link accounts only at test institutions. Answers id and createdDate. ${RULES}`,
  },
  {
    path: '/aggregation/v2/customers/testing',
    operationId: 'AddTestingCustomer',
    type: 'testing',
    withUsername: true,
    summary: 'Add testing customer',
    description: `Enrols a testing customer, who can link accounts only at test institutions. Answers id, username and createdDate. ${RULES}`,
  },
  {
    path: '/aggregation/v2/customers/active',
    operationId: 'AddCustomer',
    type: 'active',
    withUsername: true,
    summary: 'Add customer',
    description: `Enrols an active (billable) customer. Needs a production plan: a Test Drive partner gets 401 (code 14060). ${RULES}`,
  },
  {
    path: '/aggregation/v1/customers/active',
    operationId: 'AddCustomerV1',
    type: 'active',
    withUsername: false,
    deprecated: true,
    summary: 'Add customer (v1)',
    description: `The older twin of Add Customer (v2), with the same behaviour; like Add Testing Customer (v1), it answers id and createdDate. Needs a production plan: a Test Drive partner gets 401 (code 14060). ${RULES}`,
  },
];

/** POST /aggregation/v1/customers/testing, /aggregation/v2/customers/testing and /aggregation/v2/customers/active */
export default function addCustomer(app: App, runtime: Runtime): void {
  for (const v of VARIANTS) {
    app.post(v.path, {
      schema: {
        operationId: v.operationId,
        ...(v.deprecated ? { deprecated: true } : {}),
        tags: ['Customers'],
        summary: v.summary,
        description: v.description,
        body: NewCustomer,
        // The v1 schema has no username: serialisation (JSON and XML) leaves it out.
        response: { 201: (v.withUsername ? CreatedCustomer : CreatedCustomerV1) as typeof CreatedCustomer, ...errorResponses(400, 401, 406, 409, 415) },
      },
      handler: async (request, reply) => {
        return reply.code(201).send(toCreatedCustomerRecord(await createCustomer(runtime, request.caller, v.type, request.body)));
      },
    });
  }
}
