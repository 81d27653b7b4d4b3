import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('reference lists over REST', () => {
  it('lists at least 40 makers with model classes', async () => {
    const res = await t.client.get('/enums/makers');
    expect(res.status).toBe(200);
    expect(res.body.data.length).toBeGreaterThanOrEqual(40);
    const toyota = res.body.data.find((m: { id: string }) => m.id === 'Toyota');
    expect(toyota.type).toBe('makers');
    const camry = toyota.attributes.classes.find((c: { name: string }) => c.name === 'Camry');
    expect(camry).toEqual({ name: 'Camry', prefix: expect.stringMatching(/^[A-Z0-9_]+$/), models: expect.arrayContaining(['Camry']) });
  });

  it('lists every ISO 3166-1 country with its alpha-3 code and cities', async () => {
    const res = await t.client.get('/enums/countries');
    expect(res.body.data).toHaveLength(249);
    const georgia = res.body.data.find((c: { attributes: { code: string } }) => c.attributes.code === 'GEO');
    expect(georgia).toMatchObject({ type: 'countries', id: 'Georgia', attributes: { cities: expect.arrayContaining(['Tbilisi', 'Batumi']) } });
    const codes = res.body.data.map((c: { attributes: { code: string } }) => c.attributes.code);
    expect(new Set(codes).size).toBe(249);
    expect(codes).toEqual(expect.arrayContaining(['UKR', 'USA', 'DEU', 'ALA']));
  });

  it('lists fuels with the lowercase values that lot filters use', async () => {
    const res = await t.client.get('/enums/fuels');
    expect(res.body.data[0]).toEqual({ type: 'fuel_types', id: 'GASOLINE', attributes: { verbose: 'Gasoline', value: 'gas' } });
    expect(res.body.data.map((f: { attributes: { value: string } }) => f.attributes.value).sort()).toEqual(
      ['cng', 'convertible', 'diesel', 'electric', 'flexible', 'gas', 'hybrid', 'hydrogen', 'lpg', 'plugin_hybrid'],
    );
  });

  it('lists wheel positions and transmissions', async () => {
    const wheels = await t.client.get('/enums/wheels');
    expect(wheels.body.data.map((w: { id: string }) => w.id)).toEqual(['LEFT', 'RIGHT']);
    expect(wheels.body.data[0].type).toBe('wheel_positions');
    const transmissions = await t.client.get('/enums/transmissions');
    expect(transmissions.body.data.map((w: { id: string }) => w.id)).toEqual(expect.arrayContaining(['AUTOMATIC', 'MANUAL_GEARBOX']));
    expect(transmissions.body.data[0]).toMatchObject({ type: 'transmission_types', attributes: { verbose: expect.any(String) } });
  });
});

describe('reference lists over GraphQL', () => {
  it('serves the same lists as REST', async () => {
    const res = await t.client.graphql(
      '{ makers { name classes { name prefix models } } countries { name code cities } fuelTypes { id value verbose } wheelPositions { id verbose } transmissionTypes { id verbose } }',
    );
    expect(res.body.errors).toBeUndefined();
    const rest = await t.client.get('/enums/makers');
    expect(res.body.data.makers.map((m: { name: string }) => m.name)).toEqual(rest.body.data.map((m: { id: string }) => m.id));
    expect(res.body.data.countries).toHaveLength(249);
    expect(res.body.data.fuelTypes[0]).toEqual({ id: 'GASOLINE', value: 'gas', verbose: 'Gasoline' });
    expect(res.body.data.wheelPositions).toEqual([
      { id: 'LEFT', verbose: 'Left-hand drive' },
      { id: 'RIGHT', verbose: 'Right-hand drive' },
    ]);
    expect(res.body.data.transmissionTypes.length).toBeGreaterThanOrEqual(2);
  });
});
