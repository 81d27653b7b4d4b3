import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

// No Docker engine runs the tests: this reads docker-compose.yml as Compose would and checks its shape.
const root = path.resolve(__dirname, '../..');
const compose = parse(readFileSync(path.join(root, 'docker-compose.yml'), 'utf8'), { merge: true });
const dockerfile = readFileSync(path.join(root, 'Dockerfile'), 'utf8');
const APPS = ['app1', 'app2', 'app3'];

describe('docker-compose.yml', () => {
  it('runs three instances of the image on one PostgreSQL and one Redis', () => {
    expect(Object.keys(compose.services).sort()).toEqual([...APPS, 'db', 'proxy', 'redis'].sort());
    for (const name of APPS) {
      const app = compose.services[name];
      expect(app.build).toBe('.');
      expect(app.environment.DATABASE_URL).toMatch(/@db:5432\//);
      expect(app.environment.REDIS_URL).toBe('redis://redis:6379');
      expect(app.environment).toEqual(compose.services.app1.environment);
      expect(app.volumes).toEqual(['app-data:/data']);
    }
  });

  it('requires one MASTER_SEED for every instance', () => {
    expect(compose.services.app1.environment.MASTER_SEED).toMatch(/^\$\{MASTER_SEED:\?/);
  });

  it('puts the three behind the proxy, on the port the image listens on, WebSockets included', () => {
    const port = /ENV .*\bPORT=(\d+)/.exec(dockerfile)?.[1];
    expect(port).toBe('8080');
    const conf: string = compose.configs.proxy.content;
    expect([...conf.matchAll(/server (app\d):(\d+)/g)].map((m) => `${m[1]}:${m[2]}`)).toEqual(APPS.map((a) => `${a}:${port}`));
    expect(conf).toMatch(/proxy_set_header Upgrade \$\$http_upgrade;/);
    // Compose interpolates `$`: nginx's variables must be written `$$`.
    expect(conf.replace(/\$\$/g, '')).not.toContain('$');
    expect(compose.services.proxy.configs).toEqual([{ source: 'proxy', target: '/etc/nginx/conf.d/default.conf' }]);
    expect(compose.services.proxy.ports).toEqual(['8080:80']);
  });

  it('has the instances read the client address that the proxy, their only way in, appends to X-Forwarded-For', () => {
    expect(compose.services.app1.environment.TRUST_PROXY).toBe('1');
    expect(compose.services.app1.ports).toBeUndefined();
    expect(compose.configs.proxy.content).toMatch(/proxy_set_header X-Forwarded-For \$\$proxy_add_x_forwarded_for;/);
  });

  it("gives each instance's stop longer than the jobs' stop limit before Docker kills it", () => {
    const jobsLimit = Number(/\| `JOBS_STOP_SECONDS` \| `(\d+)`/.exec(readFileSync(path.join(root, 'docs/configuration.md'), 'utf8'))?.[1]);
    for (const name of APPS) {
      const grace = /^(\d+)s$/.exec(compose.services[name].stop_grace_period ?? '10s')?.[1];
      // The stop records the jobs it let go of and closes the database after the limit: a few seconds more.
      expect(Number(grace)).toBeGreaterThanOrEqual(jobsLimit + 10);
    }
  });

  it('names only services and volumes that exist', () => {
    for (const [name, service] of Object.entries<any>(compose.services)) {
      for (const dependency of Object.keys(service.depends_on ?? {})) expect(`${name} → ${dependency}: ${dependency in compose.services}`).toBe(`${name} → ${dependency}: true`);
      for (const volume of service.volumes ?? []) expect(Object.keys(compose.volumes)).toContain(volume.split(':')[0]);
    }
    expect(compose.services.app1.healthcheck.test.join(' ')).toContain('/readyz');
  });
});
