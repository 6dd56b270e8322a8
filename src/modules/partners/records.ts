/** Partner rows as the contract's records. No queries. */
import type { Static } from 'typebox';
import type { DashboardPartner } from '../../contract/schemas/dashboard.js';
import type { PartnerInfo } from '../../contract/schemas/partners.js';
import type { PartnerRow } from './table.js';

export type PartnerInfoRecord = Static<typeof PartnerInfo>;
export type DashboardPartnerRecord = Static<typeof DashboardPartner>;

/** The partner as the API's Get Partner answers it. */
export function toPartnerInfoRecord(partner: Readonly<PartnerRow>): PartnerInfoRecord {
  return { partnerId: partner.id, name: partner.name, plan: partner.plan, createdDate: partner.created_at };
}

/** The signed-in partner as the dashboard shows it, with its lock state. */
export function toDashboardPartnerRecord(partner: Readonly<PartnerRow>): DashboardPartnerRecord {
  return {
    partnerId: partner.id,
    name: partner.name,
    plan: partner.plan,
    lockedAt: partner.locked_at === null ? null : Number(partner.locked_at),
    failedAuthentications: partner.failed_auth_count,
    createdDate: Number(partner.created_at),
  };
}
