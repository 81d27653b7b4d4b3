import { readdirSync } from 'node:fs';
import path from 'node:path';
import { MetadataStorage } from '@mikro-orm/core';
import { getMetadataStorage } from 'type-graphql';
import { buildAppSchema } from '../../src/graphql/schema';
import { ENTITIES, MIGRATIONS, MODULES } from '../../src/modules';

// docs/architecture.md "Areas", each module exporting one object: what an area's folder holds reaches the app through its module alone.
const AREAS = path.resolve(__dirname, '../../src/modules');
const folders = readdirSync(AREAS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);

describe('the areas', () => {
  beforeAll(() => buildAppSchema());

  it('lists one module for each folder under src/modules, named for it', () => {
    expect(folders.length).toBeGreaterThan(15);
    expect(MODULES.map((m) => m.name).sort()).toEqual([...folders].sort());
  });

  it('registers every entity class that an area declares', () => {
    const declared = Object.values(MetadataStorage.getMetadata()).filter((meta) => !meta.embeddable && meta.class).map((meta) => meta.className);
    expect(declared.length).toBeGreaterThan(20);
    expect(ENTITIES.map((e) => e.name).sort()).toEqual([...new Set(declared)].sort());
  });

  it('registers every migration file that an area holds, once, in the order of their names', () => {
    const files = folders.flatMap((area) => {
      try {
        return readdirSync(path.join(AREAS, area, 'migrations')).map((f) => f.replace(/\.ts$/, ''));
      } catch {
        return [];
      }
    });
    expect(files.length).toBeGreaterThan(10);
    expect(MIGRATIONS.map((m) => m.name)).toEqual([...files].sort());
  });

  it('registers every resolver class that an area declares', () => {
    const declared = getMetadataStorage().resolverClasses.map((r) => r.target.name);
    const registered = MODULES.flatMap((m) => m.resolvers ?? []).map((r) => r.name);
    expect(declared.length).toBeGreaterThan(20);
    expect(registered.sort()).toEqual([...new Set(declared)].sort());
  });
});
