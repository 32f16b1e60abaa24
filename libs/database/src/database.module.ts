import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource, type DataSourceOptions } from 'typeorm';
import { type AppDataSourceOptions, type PreparedDataSource, prepareDataSource, prepareReadDataSource } from './data-source-options.js';
import { runMigrationsLocked } from './locked-migrations.js';
import { PeriodicJobs } from './periodic-jobs.js';
import { ReplicaLeases } from './replica-leases.js';

/**
 * The DataSource for reads that may lag the primary by replication (search, listings): a
 * streaming replica with `DATABASE_READ_URL`, else the primary itself. What must read its own
 * writes (status right after a registration, the search log and feedback) keeps the primary.
 */
export const READ_DATA_SOURCE = Symbol('READ_DATA_SOURCE');

export interface DatabaseModuleOptions extends AppDataSourceOptions {
  /** The app's table of periodic jobs' leases (`PeriodicJobs`). */
  leasesTable: string;
}

const EMBEDDED_DB = Symbol('EMBEDDED_DB');

interface EmbeddedDbRef {
  pglite?: PreparedDataSource['pglite'];
}

/** Closes the read replica's and the primary's DataSources, then the embedded database underneath (the leases were given up before: `PeriodicJobs`). */
@Injectable()
class DatabaseCloser implements OnApplicationShutdown {
  constructor(
    @Inject(EMBEDDED_DB) private readonly ref: EmbeddedDbRef,
    private readonly dataSource: DataSource,
    @Inject(READ_DATA_SOURCE) private readonly readDataSource: DataSource,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.readDataSource !== this.dataSource && this.readDataSource.isInitialized) await this.readDataSource.destroy();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.ref.pglite?.close();
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(options: DatabaseModuleOptions): DynamicModule {
    const ref: EmbeddedDbRef = {};
    const { readUrl } = options.target;
    return {
      module: DatabaseModule,
      global: true,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            const prepared = await prepareDataSource(options);
            ref.pglite = prepared.pglite;
            // The database was waited for above; a failure now (a migration) will not pass on retry.
            return { ...prepared.options, retryAttempts: 0 };
          },
          // With DATABASE_MIGRATE=true, replicas started at once migrate one after the other.
          dataSourceFactory: async (dataSourceOptions?: DataSourceOptions) => {
            const dataSource = await new DataSource(dataSourceOptions!).initialize();
            if (options.target.migrate) {
              try {
                await runMigrationsLocked(dataSource);
              } catch (error) {
                await dataSource.destroy().catch(() => undefined);
                throw error;
              }
            }
            return dataSource;
          },
        }),
      ],
      providers: [
        { provide: EMBEDDED_DB, useValue: ref },
        {
          provide: READ_DATA_SOURCE,
          inject: [DataSource],
          useFactory: async (primary: DataSource) => (readUrl ? new DataSource(await prepareReadDataSource(options, readUrl)).initialize() : primary),
        },
        {
          provide: PeriodicJobs,
          inject: [DataSource],
          useFactory: (dataSource: DataSource) => new PeriodicJobs(new ReplicaLeases(dataSource, options.leasesTable)),
        },
        DatabaseCloser,
      ],
      exports: [READ_DATA_SOURCE, PeriodicJobs],
    };
  }
}
