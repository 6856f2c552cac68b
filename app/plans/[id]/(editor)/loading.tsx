import { PageSkeleton } from '@/components/loading/page-skeleton';

export default function Loading() {
  return <PageSkeleton label="the plan" shape="plan" />;
}
