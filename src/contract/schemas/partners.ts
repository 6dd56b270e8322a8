import Type from 'typebox';
import { RequiredString } from './common.js';

export const PartnerCredentials = Type.Object(
  {
    partnerId: RequiredString({ description: 'Partner id from the developer dashboard', examples: ['1234583871234'] }),
    partnerSecret: RequiredString({ description: 'Partner secret from the developer dashboard', examples: ['aqJ5Ic4SEVx2IgDQ6oR4'] }),
  },
  { $id: 'PartnerCredentials', xml: { name: 'credentials' } },
);

export const PartnerCredentialsWithNewSecret = Type.Object(
  {
    partnerId: RequiredString({ description: 'Partner id', examples: ['1234583871234'] }),
    partnerSecret: RequiredString({ description: 'The current partner secret', examples: ['aqJ5Ic4SEVx2IgDQ6oR4'] }),
    newPartnerSecret: RequiredString({
      description: '12 to 255 characters: letters, digits and ! @ # $ % & * _ - +, at least one letter and one digit',
      examples: ['N3wSecret!2026x'],
    }),
  },
  { $id: 'PartnerCredentialsWithNewSecret', xml: { name: 'credentials' } },
);

export const AccessToken = Type.Object(
  { token: Type.String({ description: 'Access token for the Service-App-Token header; valid two hours', examples: ['YBh22Sb9Es6e66Q7lWdt'] }) },
  { $id: 'AccessToken', xml: { name: 'access' } },
);

export const PartnerIdentity = Type.Object(
  { partnerId: RequiredString({ description: 'The partner the app key and token belong to, as a confirmation', examples: ['1234583871234'] }) },
  { $id: 'PartnerIdentity', xml: { name: 'credentials' } },
);

/** GET /aggregation/v1/partners/me (Ledgerlink extension): the partner the credentials belong to. */
export const PartnerInfo = Type.Object(
  {
    partnerId: Type.String({ examples: ['1234583871234'] }),
    name: Type.String({ examples: ['Acme Budgeting'] }),
    plan: Type.Union([Type.Literal('testdrive'), Type.Literal('production')], { description: 'Test Drive partners work with test institutions only' }),
    createdDate: Type.Integer({ description: 'Epoch seconds' }),
  },
  { $id: 'PartnerInfo', xml: { name: 'partner' } },
);
