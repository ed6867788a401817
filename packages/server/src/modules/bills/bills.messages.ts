/** Where the entity holding a name is, so the message can say where to find it. */
export type NameHolder = 'active' | 'archived';

/** The entity named `name` already exists; says where it is when it is archived, and what a restore can do. */
export function duplicateEntityName(name: string, holder: NameHolder, restoring = false): string {
  const where =
    holder === 'archived'
      ? `An archived entity named "${name}" already exists: find it in Archives in the History menu.`
      : `An entity named "${name}" already exists.`;
  return restoring ? `${where} Restore this one under another name.` : where;
}
