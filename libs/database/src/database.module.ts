import { type DynamicModule, Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { type AppDataSourceOptions, type PreparedDataSource, prepareDataSource } from './data-source-options.js';

const EMBEDDED_DB = Symbol('EMBEDDED_DB');

interface EmbeddedDbRef {
  pglite?: PreparedDataSource['pglite'];
}

/** Closes the DataSource before the embedded database underneath it. */
@Injectable()
class EmbeddedDbCloser implements OnApplicationShutdown {
  constructor(
    @Inject(EMBEDDED_DB) private readonly ref: EmbeddedDbRef,
    private readonly dataSource: DataSource,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await this.ref.pglite?.close();
  }
}

@Module({})
export class DatabaseModule {
  static forRoot(options: AppDataSourceOptions): DynamicModule {
    const ref: EmbeddedDbRef = {};
    return {
      module: DatabaseModule,
      imports: [
        TypeOrmModule.forRootAsync({
          useFactory: async () => {
            const prepared = await prepareDataSource(options);
            ref.pglite = prepared.pglite;
            // The database was waited for above; a failure now (a migration) will not pass on retry.
            return { ...prepared.options, retryAttempts: 0 };
          },
        }),
      ],
      providers: [{ provide: EMBEDDED_DB, useValue: ref }, EmbeddedDbCloser],
    };
  }
}
