import { CreateIndex1764680000001 } from './1764680000001-CreateIndex.js';
import { AddLexicon1764680000002 } from './1764680000002-AddLexicon.js';
import { AddReindexRuns1764680000003 } from './1764680000003-AddReindexRuns.js';
import { AddEmbeddingModels1764680000004 } from './1764680000004-AddEmbeddingModels.js';
import { AddChunkTerms1764680000005 } from './1764680000005-AddChunkTerms.js';
import { AddApiTerms1764680000006 } from './1764680000006-AddApiTerms.js';
import { LexiconNearestWords1764680000007 } from './1764680000007-LexiconNearestWords.js';
import { ChunkTermsByApi1764680000008 } from './1764680000008-ChunkTermsByApi.js';
import { DropOrgWidePostingsIndex1764680000009 } from './1764680000009-DropOrgWidePostingsIndex.js';
import { LexiconCorrectionIndex1764680000010 } from './1764680000010-LexiconCorrectionIndex.js';
import { PathWordsInSearchVector1764680000011 } from './1764680000011-PathWordsInSearchVector.js';
import { TagsIndex1764680000012 } from './1764680000012-TagsIndex.js';
import { MethodIndex1764680000013 } from './1764680000013-MethodIndex.js';
import { SpecDescription1764680000014 } from './1764680000014-SpecDescription.js';
import { IndexingWarnings1764680000015 } from './1764680000015-IndexingWarnings.js';
import { StagedChunks1764680000016 } from './1764680000016-StagedChunks.js';
import { ApiKinds1764680000017 } from './1764680000017-ApiKinds.js';
import { ApiLabels1764680000018 } from './1764680000018-ApiLabels.js';
import { ApiLifecycle1764680000019 } from './1764680000019-ApiLifecycle.js';
import { SearchFeedback1764680000020 } from './1764680000020-SearchFeedback.js';
import { ReplicaLeases1764680000021 } from './1764680000021-ReplicaLeases.js';
import { FeedbackNeedMatching1764680000022 } from './1764680000022-FeedbackNeedMatching.js';

export const aiMigrations = [
  CreateIndex1764680000001,
  AddLexicon1764680000002,
  AddReindexRuns1764680000003,
  AddEmbeddingModels1764680000004,
  AddChunkTerms1764680000005,
  AddApiTerms1764680000006,
  LexiconNearestWords1764680000007,
  ChunkTermsByApi1764680000008,
  DropOrgWidePostingsIndex1764680000009,
  LexiconCorrectionIndex1764680000010,
  PathWordsInSearchVector1764680000011,
  TagsIndex1764680000012,
  MethodIndex1764680000013,
  SpecDescription1764680000014,
  IndexingWarnings1764680000015,
  StagedChunks1764680000016,
  ApiKinds1764680000017,
  ApiLabels1764680000018,
  ApiLifecycle1764680000019,
  SearchFeedback1764680000020,
  ReplicaLeases1764680000021,
  FeedbackNeedMatching1764680000022,
];
