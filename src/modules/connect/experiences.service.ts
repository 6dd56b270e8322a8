/**
 * Experiences: the look of a Connect session (application name, logo, brand colour). Every partner has
 * `default`, stored or not; others are created with `ledgerlink experience set`.
 */
import type { Executor } from '../../platform/db/database.js';
import { ServiceError } from '../../contract/errors/service-error.js';
import { findExperienceRow, findPartnerName, listExperienceRows, upsertExperienceRow } from './repository.js';

export interface Experience {
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

/** The experience of this name for the partner: 400 when it does not exist (`default` always does). */
export async function resolveExperience(db: Executor, partnerId: string, name: string | undefined): Promise<Experience> {
  const wanted = name === undefined || name.trim() === '' ? DEFAULT_EXPERIENCE : name.trim();
  const row = NAME.test(wanted) ? await findExperienceRow(db, partnerId, wanted) : undefined;
  if (row) return { name: row.name, appName: row.app_name, logoUrl: row.logo_url, primaryColor: row.primary_color };
  if (wanted === DEFAULT_EXPERIENCE) {
    const partnerName = await findPartnerName(db, partnerId);
    return { name: DEFAULT_EXPERIENCE, appName: partnerName ?? 'Connect', logoUrl: null, primaryColor: DEFAULT_COLOR };
  }
  throw new ServiceError(
    'ConnectExperienceUnknown',
    `Invalid parameter (experience): "${wanted}" is not one of this partner's experiences; use "default" or create it with ledgerlink experience set.`,
  );
}

/** Creates or replaces an experience. */
export async function saveExperience(db: Executor, partnerId: string, experience: Experience, now: number): Promise<void> {
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
  const stored = rows.map((r) => ({ name: r.name, appName: r.app_name, logoUrl: r.logo_url, primaryColor: r.primary_color }));
  const first = stored.find((x) => x.name === DEFAULT_EXPERIENCE) ?? (await resolveExperience(db, partnerId, DEFAULT_EXPERIENCE));
  return [first, ...stored.filter((x) => x.name !== DEFAULT_EXPERIENCE)];
}
