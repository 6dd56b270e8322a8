/**
 * Experiences: the look of a Connect session (application name, logo, brand colour). Every partner has
 * `default`, stored or not; others are created with `ledgerlink experience set`.
 */
import { createHash } from 'node:crypto';
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { findExperienceRow, findPartnerName, listExperienceRows, upsertExperienceRow } from './repository.js';

export interface Experience {
  /** A UUID derived from the partner and the name, so `default` has one before it is ever saved. */
  id: string;
  name: string;
  appName: string;
  logoUrl: string | null;
  primaryColor: string;
}

export const DEFAULT_EXPERIENCE = 'default';
/** Ledgerlink's own colour, for partners that did not configure `default`. */
export const DEFAULT_COLOR = '#1f5fbf';
const NAME = /^[A-Za-z0-9._-]{1,64}$/;
const COLOR = /^#[0-9a-fA-F]{6}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The id of a partner's experience: a name-based UUID over SHA-256 of the partner and the name. It
 * needs no storage, stays the same when the look changes, and is the same again for an experience saved anew.
 */
export function experienceId(partnerId: string, name: string): string {
  const b = createHash('sha256').update(`connect-experience\u0000${partnerId}\u0000${name}`).digest().subarray(0, 16);
  b[6] = (b[6]! & 0x0f) | 0x50;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function fromRow(partnerId: string, r: { name: string; app_name: string; logo_url: string | null; primary_color: string }): Experience {
  return { id: experienceId(partnerId, r.name), name: r.name, appName: r.app_name, logoUrl: r.logo_url, primaryColor: r.primary_color };
}

/** The experience of this name for the partner: 400 when it does not exist (`default` always does). */
export async function resolveExperience(db: Executor, partnerId: string, name: string | undefined): Promise<Experience> {
  const wanted = name === undefined || name.trim() === '' ? DEFAULT_EXPERIENCE : name.trim();
  // The reference names an experience by its id (a GUID) as well as "default".
  if (UUID.test(wanted)) {
    const byId = (await listExperiences(db, partnerId)).find((x) => x.id === wanted.toLowerCase());
    if (byId) return byId;
  }
  const row = NAME.test(wanted) ? await findExperienceRow(db, partnerId, wanted) : undefined;
  if (row) return fromRow(partnerId, row);
  if (wanted === DEFAULT_EXPERIENCE) {
    const partnerName = await findPartnerName(db, partnerId);
    return {
      id: experienceId(partnerId, DEFAULT_EXPERIENCE),
      name: DEFAULT_EXPERIENCE,
      appName: partnerName ?? 'Connect',
      logoUrl: null,
      primaryColor: DEFAULT_COLOR,
    };
  }
  throw new ServiceError(
    'ConnectExperienceUnknown',
    `Invalid parameter (experience): "${wanted}" is not one of this partner's experiences; use "default" or create it with ledgerlink experience set.`,
  );
}

/** Creates or replaces an experience. */
export async function saveExperience(db: Executor, partnerId: string, experience: Omit<Experience, 'id'>, now: number): Promise<void> {
  if (!NAME.test(experience.name))
    throw new ServiceError('InvalidParameter', 'Invalid parameter (name): 1 to 64 letters, digits, dots, dashes or underscores.');
  if (!COLOR.test(experience.primaryColor)) throw new ServiceError('InvalidParameter', 'Invalid parameter (color): a hex colour such as #1f5fbf.');
  if (experience.appName.trim() === '' || experience.appName.length > 255)
    throw new ServiceError('InvalidParameter', 'Invalid parameter (appName): 1 to 255 characters.');
  if (experience.logoUrl !== null && !/^https?:\/\/\S+$/.test(experience.logoUrl))
    throw new ServiceError('InvalidParameter', 'Invalid parameter (logo): an http or https URL.');
  await upsertExperienceRow(
    db,
    {
      partner_id: partnerId,
      name: experience.name,
      app_name: experience.appName.trim(),
      logo_url: experience.logoUrl,
      primary_color: experience.primaryColor.toLowerCase(),
      updated_at: now,
    },
    now,
  );
}

/** Every experience of a partner, `default` first (shown with its fallback look when it was never saved), then by name. */
export async function listExperiences(db: Executor, partnerId: string): Promise<Experience[]> {
  const rows = await listExperienceRows(db, partnerId);
  const stored = rows.map((r) => fromRow(partnerId, r));
  const first = stored.find((x) => x.name === DEFAULT_EXPERIENCE) ?? (await resolveExperience(db, partnerId, DEFAULT_EXPERIENCE));
  return [first, ...stored.filter((x) => x.name !== DEFAULT_EXPERIENCE)];
}

/** An experience as Get Experience IDs answers it. */
export interface ExperienceSummary {
  id: string;
  appName: string;
  productCode: string[];
}

/**
 * Get Experience IDs: the partner's experiences whose application name is `appName` (any letter case). Experiences
 * set the look only and run no product, so they carry no product codes and a `productCode` filter keeps none. Not
 * found when none is left.
 */
export async function findExperiencesByAppName(
  db: Executor,
  partnerId: string,
  appName: string,
  productCodes: readonly string[],
): Promise<ExperienceSummary[]> {
  const wanted = appName.trim().toLowerCase();
  const found = (await listExperiences(db, partnerId))
    .filter((x) => x.appName.trim().toLowerCase() === wanted)
    .map((x) => ({ id: x.id, appName: x.appName, productCode: [] as string[] }))
    .filter((x) => productCodes.length === 0 || x.productCode.some((code) => productCodes.includes(code)));
  if (found.length === 0) throw new ServiceError('ConnectExperiencesNotFound');
  return found;
}

/**
 * Duplicate Experience for an indirect partner: a copy of the partner's experience (its look), named after the source
 * and the indirect partner, among the partner's own experiences (an experience is used by the partner that owns it,
 * and Ledgerlink's partners have no indirect partners of their own). Duplicating the same source for the same
 * indirect partner again refreshes the copy's look and answers the same id. Not found when the source is not the partner's.
 */
export async function duplicateExperience(
  db: Executor,
  partnerId: string,
  experienceIdWanted: string,
  indirectPartnerId: number,
  now: number,
): Promise<{ experienceId: string }> {
  const source = UUID.test(experienceIdWanted) ? (await listExperiences(db, partnerId)).find((x) => x.id === experienceIdWanted.toLowerCase()) : undefined;
  if (!source) throw new ServiceError('ConnectExperienceNotFound', `The requested experience ${experienceIdWanted} was not found.`);
  if (!Number.isSafeInteger(indirectPartnerId) || indirectPartnerId < 1)
    throw new ServiceError('InvalidParameter', 'Invalid parameter (indirectPartnerId): a positive integer.');
  const suffix = `-${indirectPartnerId}`;
  const name = `${source.name.slice(0, 64 - suffix.length)}${suffix}`;
  await saveExperience(db, partnerId, { name, appName: source.appName, logoUrl: source.logoUrl, primaryColor: source.primaryColor }, now);
  return { experienceId: experienceId(partnerId, name) };
}
